import { toCsv } from "../engine/csv.ts";
import { type Analysis, analyse, enrichedBy, withInsights } from "../engine/insights/index.ts";
import { enrichmentJsonWriter, withEnrichmentJson } from "../engine/insights/enriched-json.ts";
import type { InsightRow } from "../engine/insights/types.ts";
import { responseJson } from "../engine/response-json.ts";
import type { ParseResponse, Transaction } from "../engine/types.ts";
import { toXlsx } from "./xlsx.ts";

export type InsightsFormat = "json" | "csv" | "xlsx";

export type InsightsOutput = { kind: "json"; json: string } | { kind: "csv"; json: string; csv: string } | { kind: "xlsx"; bytes: Uint8Array<ArrayBuffer> };

/** What the insights thread is asked (workers/insights.worker.ts): `bytes`, the JSON answer as UTF-8 bytes, sent as they are. */
export interface InsightsTask {
  /** The kept ParseResponse JSON: text, or its UTF-8 bytes (decoded on the thread, not on the main one). */
  json: string | Uint8Array<ArrayBuffer>;
  format: InsightsFormat;
  bytes?: boolean;
}

/** New text, or a range [start, end) of the kept JSON the answer was made from. */
export type Piece = string | readonly [number, number];
/**
 * What the insights thread answers (workers/insights.worker.ts): the enriched JSON as pieces, new
 * text between ranges of the kept JSON, which the caller already holds and need not be sent back.
 */
export type InsightsPieces = { kind: "json"; json: Piece[] } | { kind: "csv"; json: Piece[]; csv: string } | { kind: "xlsx"; bytes: Uint8Array<ArrayBuffer> };

/** Each piece's text: new text as it is, a range as that part of the kept JSON. */
const pieceTexts = (kept: string, pieces: readonly Piece[]): string[] => pieces.map((p) => (typeof p === "string" ? p : kept.slice(p[0], p[1])));

/** The enriched JSON from its pieces and the kept JSON they refer to. */
export const joinPieces = (kept: string, pieces: readonly Piece[]): string => pieceTexts(kept, pieces).join("");

/**
 * The same as UTF-8 bytes, each piece encoded straight into one buffer of the exact size: what an
 * HTTP answer sends, without the joined string (59 MB on the bench statement's enriched JSON) and
 * its encoding on the thread that sends it.
 */
export function piecesBytes(kept: string, pieces: readonly Piece[]): Uint8Array<ArrayBuffer> {
  const texts = pieceTexts(kept, pieces);
  const out = new Uint8Array(texts.reduce((n, t) => n + Buffer.byteLength(t, "utf8"), 0));
  const encoder = new TextEncoder();
  let at = 0;
  for (const t of texts) at += encoder.encodeInto(t, out.subarray(at)).written;
  return out;
}

const KEY = '"transactions":[';

/** The kept ParseResponse, and where its top-level rows' JSON is when accounts[0] shares it. */
interface Kept {
  response: ParseResponse;
  /** Where the top-level `transactions` array's text starts and its length, and where accounts[0]'s (the same text) starts. */
  shared?: { open: number; length: number; copy: number };
}

/**
 * The kept ParseResponse, its rows parsed once: the response JSON writes the first section's rows
 * twice (top-level `transactions` and `accounts[0]`, src/engine/response-json.ts), so when the
 * top-level array is the text of accounts[0]'s it is left out of the parse and the two share
 * accounts[0]'s array, as in the response that was written. Anything else: the whole JSON parsed.
 */
function readKept(kept: string): Kept {
  const start = kept.indexOf(KEY);
  // A narration cannot hold `],"accounts":[` (its quotes would be escaped): this is the top-level array's end.
  const end = start < 0 ? -1 : kept.indexOf('],"accounts":[', start);
  if (end > 0) {
    try {
      const r = JSON.parse(`${kept.slice(0, start + KEY.length)}]${kept.slice(end + 1)}`) as ParseResponse;
      const first = r.accounts?.[0]?.transactions;
      // accounts[0]'s rows are the next `"transactions":[` (no other field of a section holds that
      // key); a JSON value ends where it ends, so the same text there is the same array.
      const open = start + KEY.length - 1;
      const next = kept.indexOf(KEY, end);
      const copy = next + KEY.length - 1;
      if (first && next > 0 && kept.startsWith(kept.slice(open, end + 1), copy)) return { response: { ...r, transactions: first }, shared: { open, length: end + 1 - open, copy } };
    } catch {
      // Not the layout this reads: parsed whole below.
    }
  }
  return { response: JSON.parse(kept) as ParseResponse };
}

export const parseKept = (kept: string): ParseResponse => readKept(kept).response;

/**
 * The enriched response's JSON as pieces of the kept JSON: each transactions array of the kept
 * text (top level, then each account section) replaced by the same rows with their enrichment,
 * and `insights` added last, which is where responseJson(withInsights(...)) writes them; every
 * other byte is the kept text. Each array is found in order and checked to be exactly its rows'
 * JSON before it is replaced; the shared first one only to be the same text at both places, since
 * a kept result is responseJson's own JSON.stringify text. Undefined when one is not (the caller
 * then writes the whole JSON). The enriched rows are the kept rows' text with each row's
 * enrichment added (src/engine/insights/enriched-json.ts), not serialised again.
 */
function splice(kept: string, { response: original, shared }: Kept, { rows, insights }: Analysis): Piece[] | undefined {
  // Each array's rows and the index of its first row among the analysed rows (sections in print
  // order). The top level is written as the first section's rows, so its kept text must be theirs.
  const sections = original.accounts?.length ? original.accounts : [original];
  const arrays: [Transaction[], number][] = [[sections[0]?.transactions ?? [], 0]];
  let from = 0;
  for (const a of original.accounts ?? []) {
    arrays.push([a.transactions, from]);
    from += a.transactions.length;
  }
  const enrichment = enrichmentJsonWriter();
  // Where each array's kept text is, and its enriched text: an array written twice is enriched once.
  const texts = new Map<Transaction[], { open: number; length: number; rich: string }>();
  const pieces: Piece[] = [];
  let at = 0;
  for (const [list, first] of arrays) {
    const key = kept.indexOf(KEY, at);
    if (key < 0) return undefined;
    const open = key + KEY.length - 1;
    let text = texts.get(list);
    if (!text) {
      const length = shared?.open === open ? shared.length : keptLength(kept, open, list);
      const rich = length === undefined ? undefined : withEnrichmentJson(kept.slice(open, open + length), list.length, (i) => enrichment((rows[first + i] as InsightRow).enrichment));
      if (length === undefined || rich === undefined) return undefined;
      texts.set(list, (text = { open, length, rich }));
    } else if (shared?.copy !== open && !kept.startsWith(kept.slice(text.open, text.open + text.length), open)) {
      // The same rows written again, here in another text (a kept JSON not written by responseJson).
      return undefined;
    }
    pieces.push([at, open], text.rich);
    at = open + text.length;
  }
  const close = kept.length - 1;
  if (kept[close] !== "}" || close < at) return undefined;
  pieces.push([at, close], `,"insights":${JSON.stringify(insights)}}`);
  return pieces;
}

/** The length of `rows`' JSON at `open` in the kept text, when that text is exactly their JSON. */
function keptLength(kept: string, open: number, rows: Transaction[]): number | undefined {
  const json = JSON.stringify(rows);
  return kept.startsWith(json, open) ? json.length : undefined;
}

/**
 * A kept ParseResponse (its JSON) with insights (docs/insights.md), in a format, as pieces of the
 * kept JSON (see InsightsPieces): the JSON with `enrichment` and `insights`, the CSV or the
 * workbook with category and counterparty columns.
 */
export async function insightsPieces(kept: string, format: InsightsFormat): Promise<InsightsPieces> {
  const read = readKept(kept);
  const original = read.response;
  // A result kept with its insights already (a job created with include=insights) is its own answer.
  if ("insights" in original) {
    const enriched = withInsights(original);
    if (format === "xlsx") return { kind: "xlsx", bytes: await toXlsx(enriched, { insights: true }) };
    return format === "csv" ? { kind: "csv", json: [[0, kept.length]], csv: toCsv(enriched, { insights: true }) } : { kind: "json", json: [[0, kept.length]] };
  }
  const analysis = analyse(original);
  // The enriched objects only where a writer needs them: the JSON is spliced from the kept text.
  const enriched = () => enrichedBy(original, analysis);
  if (format === "xlsx") return { kind: "xlsx", bytes: await toXlsx(enriched(), { insights: true }) };
  const json: Piece[] = splice(kept, read, analysis) ?? [responseJson(enriched() as unknown as ParseResponse)];
  return format === "csv" ? { kind: "csv", json, csv: toCsv(enriched(), { insights: true }) } : { kind: "json", json };
}

/** The same, joined: the enriched JSON, the CSV or the workbook (in-process callers and tests). */
export async function insightsOutput(kept: string, format: InsightsFormat): Promise<InsightsOutput> {
  const out = await insightsPieces(kept, format);
  if (out.kind === "xlsx") return out;
  return out.kind === "csv" ? { kind: "csv", json: joinPieces(kept, out.json), csv: out.csv } : { kind: "json", json: joinPieces(kept, out.json) };
}
