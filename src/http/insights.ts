import { type Deliverable, keptBeside, type ParseFormat } from "../jobs/result-formats.ts";
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

/**
 * A finished parse with insights, in `format`; undefined for a redact result (no parse to explain).
 * Made once per kept result and format, then kept beside it while the job is held
 * (src/jobs/result-formats.ts keptBeside): a job's second read is the first one's answer.
 */
export async function insightsAs(outcome: DocumentResult, format: ParseFormat): Promise<Deliverable | undefined> {
  if (outcome.kind === "redact") return undefined;
  // A job made with include=insights kept its result with them (withInsightsKept): its own format is that result.
  if (enriched.has(outcome) && (format === "json" || format === outcome.kind)) return format === "json" && outcome.kind === "csv" ? { kind: "json", json: outcome.json } : outcome;
  return keptBeside(outcome, `insights:${format}`, () => insightsOffThread(outcome.json, format));
}

/** Results that already carry enrichment and insights (their JSON is the enriched response). */
const enriched = new WeakSet<DocumentResult>();

/**
 * For a job created with include=insights (src/jobs/service.ts SubmitOptions.finish): its parse
 * with enrichment and insights, made as the job ends and kept as its result, so the SSE `result`
 * event, the snapshot's `result` and the result endpoint all carry them and none makes them again.
 * A json or xlsx job keeps the enriched JSON (the workbook is made from it on read), a csv job the
 * enriched JSON and the CSV with category and counterparty columns. Should the insights fail, the
 * plain parse is kept and the result endpoint makes them on read, as for any job.
 */
export async function withInsightsKept(parsed: DocumentResult): Promise<DocumentResult> {
  if (parsed.kind === "redact") return parsed;
  try {
    const made = await insightsOffThread(parsed.json, parsed.kind);
    if (made.kind === "xlsx") return parsed;
    const kept: DocumentResult = made.kind === "csv" ? { kind: "csv", json: made.json, csv: made.csv } : { kind: "json", json: made.json };
    enriched.add(kept);
    return kept;
  } catch {
    return parsed;
  }
}
