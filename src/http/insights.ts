import type { Deliverable, ParseFormat } from "../jobs/result-formats.ts";
import type { DocumentResult } from "../jobs/runner.ts";
import { insightsOffThread } from "../output/insights-pool.ts";
import { RequestValidationError } from "./errors.ts";

/**
 * `?include=insights` (docs/insights.md): the parse with `enrichment` on every transaction and
 * `insights` at the top level, or the CSV / XLSX with category and counterparty columns. The
 * insights are made here, at the HTTP edge, from the ParseResponse JSON the workers answered or
 * the job kept: read time, so a kept result is never parsed again and the kept JSON stays the
 * spec's (the engine's insight functions are pure; src/engine/insights/). They are made on a
 * thread of their own (src/output/insights-pool.ts): seconds of CPU on the largest statements.
 */

export const INCLUDE_VALUES = ["insights"] as const;

export const includeQueryParameter = {
  name: "include",
  in: "query",
  required: false,
  schema: { type: "string", enum: [...INCLUDE_VALUES] },
  description:
    "insights: every transaction gains `enrichment` (category, channel, counterparty, session_id, fee_of, confidence) and the response gains `insights` (monthly in/out, salary, recurring debits, charges and levies, own transfers, loans, betting, balances, reversed items, largest counterparties), each figure with the rows it adds up from; CSV and XLSX gain `category` and `counterparty` columns. docs/insights.md",
};

/** True when the request asks for insights; 422 for any other `include` value. */
export function wantsInsights(request: Request): boolean {
  const values = new URL(request.url).searchParams.getAll("include");
  if (values.length === 0) return false;
  const bad = values.flatMap((v) => v.split(",")).find((v) => !(INCLUDE_VALUES as readonly string[]).includes(v.trim()));
  if (bad !== undefined) {
    throw new RequestValidationError([{ loc: ["query", "include"], msg: "Input should be 'insights'", type: "enum", input: bad, ctx: { expected: "'insights'" } }]);
  }
  return true;
}

/** 422: a redacted document has no rows to explain. */
export const redactWithInsights = () =>
  new RequestValidationError([{ loc: ["query", "include"], msg: "redact=true returns the redacted document; it cannot be combined with include=insights", type: "conflict", input: "insights", ctx: {} }]);

/** A finished parse with insights, in `format`; undefined for a redact result (no parse to explain). */
export async function insightsAs(outcome: DocumentResult, format: ParseFormat): Promise<Deliverable | undefined> {
  if (outcome.kind === "redact") return undefined;
  return insightsOffThread(outcome.json, format);
}
