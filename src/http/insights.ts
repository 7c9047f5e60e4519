import { type Deliverable, jsonOf, keptBeside, type ParseFormat } from "../jobs/result-formats.ts";
import type { DocumentResult } from "../jobs/runner.ts";
import { insightsOffThread } from "../output/insights-pool.ts";
import { RequestValidationError } from "./errors.ts";

/**
 * `?include=insights` (docs/insights.md): the parse with `enrichment` on every transaction and
 * `insights` at the top level, or the CSV / XLSX with category and counterparty columns. Asked at
 * submit (POST /v1/parse, a job created with it), the parse worker writes its answer with them
 * (src/output/insights-inline.ts; the result is marked `insights`). Otherwise (a plain job's result
 * read with them, a scan read by OCR, the canned sample) they are made here from the kept
 * ParseResponse JSON, never by parsing the PDF again, on a thread of their own
 * (src/output/insights-pool.ts): a few hundred ms of CPU on the largest statements.
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
  // Made with its insights (by the worker, or withInsightsKept): in its own format that result is the answer.
  if (outcome.insights && (format === "json" || format === outcome.kind)) return format === "json" ? jsonOf(outcome) : outcome;
  // The JSON goes out as the bytes the thread wrote (nothing joined or encoded on this thread).
  return keptBeside(outcome, `insights:${format}`, () => insightsOffThread(outcome.utf8 ?? outcome.json, format));
}

/**
 * For a job created with include=insights (src/jobs/service.ts SubmitOptions.finish): its parse
 * with enrichment and insights, kept as its result, so the SSE `result` event, the snapshot's
 * `result` and the result endpoint all carry them and none makes them again. The parse worker
 * normally made them already (the result is then kept as it is); a scan read by OCR comes back
 * plain and gets them here, on the insights thread. A json or xlsx job keeps the enriched JSON (the
 * workbook is made from it on read), a csv job the enriched JSON and the CSV with category and
 * counterparty columns. Should the insights fail, the plain parse is kept and the result endpoint
 * makes them on read, as for any job.
 */
export async function withInsightsKept(parsed: DocumentResult): Promise<DocumentResult> {
  if (parsed.kind === "redact" || parsed.insights) return parsed;
  try {
    const made = await insightsOffThread(parsed.utf8 ?? parsed.json, parsed.kind);
    if (made.kind === "xlsx") return parsed;
    return Object.assign(made, { insights: true as const });
  } catch {
    return parsed;
  }
}
