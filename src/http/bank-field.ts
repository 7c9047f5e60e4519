import { listBanks } from "../engine/index.ts";
import type { Upload } from "../jobs/service.ts";
import { RequestValidationError } from "./errors.ts";

/** `unknown` asks for the generic layout inference without bank detection (src/engine/assemble.ts). */
const GENERIC_BANK = "unknown";

/**
 * The `bank` form field names a bank profile (GET /v1/banks) or `unknown`. Checked here, before
 * the upload is admitted and metered, so a typo gets the 422 validation body (SPEC 7.1) listing
 * the accepted values, like every other bad field, instead of an engine error after a worker ran.
 */
export function checkBankField(upload: Pick<Upload, "bank">): void {
  const bank = upload.bank;
  if (bank === undefined) return;
  const ids = listBanks().map((b) => b.id);
  if (bank === GENERIC_BANK || ids.includes(bank)) return;
  const expected = [...ids, GENERIC_BANK];
  throw new RequestValidationError([
    {
      loc: ["body", "bank"],
      msg: `Unknown bank "${bank}"; expected one of the ids listed by GET /v1/banks, or "${GENERIC_BANK}"`,
      type: "enum",
      input: bank,
      ctx: { expected },
    },
  ]);
}
