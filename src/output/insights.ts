import { toCsv } from "../engine/csv.ts";
import { type Analysis, analyse, enrichedBy, withInsights } from "../engine/insights/index.ts";
import { asBuffer, enrichedLength, enrichmentJsonWriter, type RowCuts, rowCuts, writeEnriched } from "../engine/insights/enriched-json.ts";
import type { InsightRow } from "../engine/insights/types.ts";
import { responseBytes } from "../engine/response-json.ts";
import type { ParseResponse, Transaction } from "../engine/types.ts";
import { toXlsx } from "./xlsx.ts";

export type InsightsFormat = "json" | "csv" | "xlsx";

/** The answer with insights for callers that read text (in-process callers and tests). */
export type InsightsOutput = { kind: "json"; json: string } | { kind: "csv"; json: string; csv: string } | { kind: "xlsx"; bytes: Uint8Array<ArrayBuffer> };

/**
 * What the insights thread answers (workers/insights.worker.ts): the JSON with insights as the
 * UTF-8 bytes an answer sends (with the CSV when asked), or the workbook.
 */
export type InsightsAnswer = { kind: "json"; utf8: Uint8Array } | { kind: "csv"; utf8: Uint8Array; csv: string } | { kind: "xlsx"; bytes: Uint8Array<ArrayBuffer> };

/** What the insights thread is asked (workers/insights.worker.ts). */
export interface InsightsTask {
  /** The kept ParseResponse JSON: its UTF-8 bytes (shared with the parse worker's answer, so not copied), or text (encoded on the thread). */
  json: string | Uint8Array;
  format: InsightsFormat;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** True when `bytes` are at `at` in `kept`. */
const bytesAt = (kept: Buffer, bytes: Uint8Array, at: number): boolean => at + bytes.byteLength <= kept.byteLength && kept.compare(bytes, 0, bytes.byteLength, at, at + bytes.byteLength) === 0;

const KEY = Buffer.from('"transactions":[');
const ACCOUNTS = Buffer.from('],"accounts":[');

/** The kept ParseResponse, and where its top-level rows' JSON is when accounts[0] shares it (byte offsets). */
interface Kept {
  response: ParseResponse;
  /** Where the top-level `transactions` array's bytes start and their length, and where accounts[0]'s (the same bytes) start. */
  shared?: { open: number; length: number; copy: number };
}

/**
 * The kept ParseResponse, its rows parsed once: the response JSON writes the first section's rows
 * twice (top-level `transactions` and `accounts[0]`, src/engine/response-json.ts), so when the
 * top-level array is the bytes of accounts[0]'s it is left out of what is decoded and parsed, and
 * the two share accounts[0]'s array, as in the response that was written. Anything else: the whole
 * JSON parsed. The kept bytes are searched as they are: every pattern is ASCII, which no byte of a
 * multi-byte UTF-8 character is.
 */
function readKept(kept: Uint8Array): Kept {
  const b = asBuffer(kept);
  const start = b.indexOf(KEY);
  // A narration cannot hold `],"accounts":[` (its quotes would be escaped): this is the top-level array's end.
  const end = start < 0 ? -1 : b.indexOf(ACCOUNTS, start);
  if (end > 0) {
    try {
      const head = start + KEY.byteLength;
      // The JSON with an empty top-level array: its head, `]`, then everything after the array.
      const rest = new Uint8Array(head + kept.byteLength - end);
      rest.set(kept.subarray(0, head));
      rest[head] = 0x5d;
      rest.set(kept.subarray(end + 1), head + 1);
      const r = JSON.parse(decoder.decode(rest)) as ParseResponse;
      const first = r.accounts?.[0]?.transactions;
      // accounts[0]'s rows are the next `"transactions":[` (no other field of a section holds that
      // key); a JSON value ends where it ends, so the same bytes there are the same array.
      const open = head - 1;
      const length = end + 1 - open;
      const next = b.indexOf(KEY, end);
      const copy = next + KEY.byteLength - 1;
      if (first && next > 0 && bytesAt(b, kept.subarray(open, end + 1), copy)) return { response: { ...r, transactions: first }, shared: { open, length, copy } };
    } catch {
      // Not the layout this reads: parsed whole below.
    }
  }
  return { response: JSON.parse(decoder.decode(kept)) as ParseResponse };
}

export const parseKept = (kept: string): ParseResponse => readKept(encoder.encode(kept)).response;

/** One transactions array of the kept JSON and its rows' enrichment: where its bytes are, its rows' ends, each row's enrichment. */
interface Enriched {
  json: Uint8Array;
  cuts: RowCuts;
  enrichments: Uint8Array[];
}

/**
 * The enriched response's JSON bytes spliced from the kept bytes: each transactions array of the
 * kept JSON (top level, then each account section) replaced by the same rows with their
 * enrichment, and `insights` added last, which is where responseJson(withInsights(...)) writes
 * them; every other byte is the kept JSON's. Each array is found in order and checked to be
 * exactly its rows' JSON before it is replaced; the shared first one only to be the same bytes at
 * both places, since a kept result is responseJson's own JSON.stringify text. Undefined when one is
 * not (the caller then writes the whole JSON). The enriched rows are the kept rows' bytes with each
 * row's enrichment added (src/engine/insights/enriched-json.ts), written straight into the answer.
 */
function splice(kept: Uint8Array, { response: original, shared }: Kept, { rows, insights }: Analysis): Uint8Array<ArrayBuffer> | undefined {
  // Each array's rows and the index of its first row among the analysed rows (sections in print
  // order). The top level is written as the first section's rows, so its kept bytes must be theirs.
  const sections = original.accounts?.length ? original.accounts : [original];
  const arrays: [Transaction[], number][] = [[sections[0]?.transactions ?? [], 0]];
  let from = 0;
  for (const a of original.accounts ?? []) {
    arrays.push([a.transactions, from]);
    from += a.transactions.length;
  }
  const b = asBuffer(kept);
  const enrichment = enrichmentJsonWriter();
  // Where each array is in the kept bytes, and its enrichment: an array written twice is enriched once.
  const found = new Map<Transaction[], Enriched>();
  const places: [number, Enriched][] = [];
  let at = 0;
  for (const [list, first] of arrays) {
    const key = b.indexOf(KEY, at);
    if (key < 0) return undefined;
    const open = key + KEY.byteLength - 1;
    let array = found.get(list);
    if (!array) {
      const length = shared?.open === open ? shared.length : keptLength(b, open, list);
      const json = length === undefined ? undefined : kept.subarray(open, open + length);
      const cuts = json && rowCuts(json, list.length);
      if (!json || !cuts) return undefined;
      found.set(list, (array = { json, cuts, enrichments: list.map((_, i) => enrichment((rows[first + i] as InsightRow).enrichment)) }));
    } else if (shared?.copy !== open && !bytesAt(b, array.json, open)) {
      // The same rows written again, here in other bytes (a kept JSON not written by responseJson).
      return undefined;
    }
    places.push([open, array]);
    at = open + array.json.byteLength;
  }
  const close = kept.byteLength - 1;
  if (kept[close] !== 0x7d || close < at) return undefined;
  const tail = encoder.encode(`,"insights":${JSON.stringify(insights)}}`);
  const size = places.reduce((n, [, a]) => n + enrichedLength(a.json, a.enrichments) - a.json.byteLength, close + tail.byteLength);
  const out = new Uint8Array(size);
  // Where each array's enriched rows were written first: written again, they are copied.
  const written = new Map<Enriched, [number, number]>();
  let w = 0;
  from = 0;
  for (const [open, array] of places) {
    w += b.copy(out, w, from, open);
    const before = written.get(array);
    if (before) {
      out.copyWithin(w, before[0], before[1]);
      w += before[1] - before[0];
    } else {
      const start = w;
      w = writeEnriched(out, w, array.json, array.cuts, array.enrichments);
      written.set(array, [start, w]);
    }
    from = open + array.json.byteLength;
  }
  w += b.copy(out, w, from, close);
  out.set(tail, w);
  return out;
}

/** The enriched JSON spliced from a kept JSON's bytes; undefined where it would be written whole (tests: which way a kept JSON goes). */
export function splicedJson(kept: Uint8Array): Uint8Array<ArrayBuffer> | undefined {
  const read = readKept(kept);
  return splice(kept, read, analyse(read.response));
}

/** The length of `rows`' JSON at `open` in the kept bytes, when those bytes are exactly their JSON. */
function keptLength(kept: Buffer, open: number, rows: Transaction[]): number | undefined {
  const json = encoder.encode(JSON.stringify(rows));
  return bytesAt(kept, json, open) ? json.byteLength : undefined;
}

/**
 * A kept ParseResponse (its JSON bytes) with insights (docs/insights.md), in a format: the JSON
 * with `enrichment` and `insights` as UTF-8 bytes (and the CSV with category and counterparty
 * columns), or the workbook.
 */
export async function insightsAnswer(kept: Uint8Array, format: InsightsFormat): Promise<InsightsAnswer> {
  const read = readKept(kept);
  const original = read.response;
  // A result kept with its insights already (a job created with include=insights) is its own answer.
  if ("insights" in original) {
    const enriched = withInsights(original);
    if (format === "xlsx") return { kind: "xlsx", bytes: await toXlsx(enriched, { insights: true }) };
    return format === "csv" ? { kind: "csv", utf8: kept, csv: toCsv(enriched, { insights: true }) } : { kind: "json", utf8: kept };
  }
  const analysis = analyse(original);
  // The enriched objects only where a writer needs them: the JSON is spliced from the kept bytes.
  const enriched = () => enrichedBy(original, analysis);
  if (format === "xlsx") return { kind: "xlsx", bytes: await toXlsx(enriched(), { insights: true }) };
  const utf8 = splice(kept, read, analysis) ?? responseBytes(enriched() as unknown as ParseResponse);
  return format === "csv" ? { kind: "csv", utf8, csv: toCsv(enriched(), { insights: true }) } : { kind: "json", utf8 };
}

/** The same from and to text: the enriched JSON, the CSV or the workbook (in-process callers and tests). */
export async function insightsOutput(kept: string, format: InsightsFormat): Promise<InsightsOutput> {
  const out = await insightsAnswer(encoder.encode(kept), format);
  if (out.kind === "xlsx") return out;
  const json = decoder.decode(out.utf8);
  return out.kind === "csv" ? { kind: "csv", json, csv: out.csv } : { kind: "json", json };
}
