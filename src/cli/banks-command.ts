/** `banks`: the bank ids `--bank` takes, from the engine's own profile list (no server needed). */
import { EXIT_OK, parseFlags } from "./args.ts";
import { BANKS_HELP } from "./help.ts";
import type { Io } from "./io.ts";

export async function banksCommand(args: string[], io: Io): Promise<number> {
  const { values } = parseFlags(args, { help: { type: "boolean", short: "h" }, json: { type: "boolean" } } as const);
  if (values.help) {
    io.stdout.write(`${BANKS_HELP}\n`);
    return EXIT_OK;
  }
  const { listBanks } = await import("../engine/index.ts");
  const banks = listBanks();
  if (values.json) {
    io.stdout.write(`${JSON.stringify(banks, null, 2)}\n`);
    return EXIT_OK;
  }
  const width = Math.max(...banks.map((b) => b.id.length));
  io.stdout.write(`${banks.map((b) => `${b.id.padEnd(width)}  ${b.name} (${b.formats.join(", ")})`).join("\n")}\n`);
  return EXIT_OK;
}
