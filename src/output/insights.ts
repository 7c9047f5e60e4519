import { toCsv } from "../engine/csv.ts";
import { type EnrichedResponse, withInsights } from "../engine/insights/index.ts";
import { responseJson } from "../engine/response-json.ts";
import type { ParseResponse, Transaction } from "../engine/types.ts";
import { toXlsx } from "./xlsx.ts";

export type InsightsFormat = "json" | "csv" | "xlsx";

export type InsightsOutput = { kind: "json"; json: string } | { kind: "csv"; json: string; csv: string } | { kind: "xlsx"; bytes: Uint8Array<ArrayBuffer> };

/** New text, or a range [start, end) of the kept JSON the answer was made from. */
export type Piece = string | readonly [number, number];
/**
 * What the insights thread answers (workers/insights.worker.ts): the enriched JSON as pieces, new
 * text between ranges of the kept JSON, which the caller already holds and need not be sent back.
 */
export type InsightsPieces = { kind: "json"; json: Piece[] } | { kind: "csv"; json: Piece[]; csv: string } | { kind: "xlsx"; bytes: Uint8Array<ArrayBuffer> };

/** The enriched JSON from its pieces and the kept JSON they refer to. */
export const joinPieces = (kept: string, pieces: readonly Piece[]): string => pieces.map((p) => (typeof p === "string" ? p : kept.slice(p[0], p[1]))).join("");

const KEY = '"transactions":[';

/**
 * The kept ParseResponse, its rows parsed once: the response JSON writes the first section's rows
 * twice (top-level `transactions` and `accounts[0]`, src/engine/response-json.ts), so when the
 * top-level array is the text of accounts[0]'s it is left out of the parse and the two share
 * accounts[0]'s array, as in the response that was written. Anything else: the whole JSON parsed.
 */
export function parseKept(kept: string): ParseResponse {
  const start = kept.indexOf(KEY);
  // A narration cannot hold `],"accounts":[` (its quotes would be escaped): this is the top-level array's end.
  const end = start < 0 ? -1 : kept.indexOf('],"accounts":[', start);
  if (end > 0) {
    try {
      const r = JSON.parse(`${kept.slice(0, start + KEY.length)}]${kept.slice(end + 1)}`) as ParseResponse;
      const first = r.accounts?.[0]?.transactions;
      if (first && kept.slice(start + KEY.length - 1, end + 1) === JSON.stringify(first)) return { ...r, transactions: first };
    } catch {
      // Not the layout this reads: parsed whole below.
    }
  }
  return JSON.parse(kept) as ParseResponse;
}

/**
 * The enriched response's JSON as pieces of the kept JSON: each transactions array of the kept
 * text (top level, then each account section) replaced by the same rows with their enrichment,
 * and `insights` added last, which is where responseJson(withInsights(...)) writes them; every
 * other byte is the kept text. Each array is found in order and checked to be exactly its rows'
 * JSON before it is replaced; undefined when one is not (the caller then writes the whole JSON).
 */
function splice(kept: string, original: ParseResponse, enriched: EnrichedResponse): Piece[] | undefined {
  const arrays: [Transaction[], unknown[]][] = [[original.transactions, enriched.transactions]];
  original.accounts?.forEach((a, i) => arrays.push([a.transactions, enriched.accounts?.[i]?.transactions ?? []]));
  // Arrays shared by two places are written once (the first section's, as responseJson does).
  const texts = new Map<Transaction[], [string, string]>();
  const pieces: Piece[] = [];
  let at = 0;
  for (const [rows, rich] of arrays) {
    let text = texts.get(rows);
    if (!text) texts.set(rows, (text = [JSON.stringify(rows), JSON.stringify(rich)]));
    const key = kept.indexOf(KEY, at);
    if (key < 0) return undefined;
    const open = key + KEY.length - 1;
    if (!kept.startsWith(text[0], open)) return undefined;
    pieces.push([at, open], text[1]);
    at = open + text[0].length;
  }
  const close = kept.length - 1;
  if (kept[close] !== "}" || close < at) return undefined;
  pieces.push([at, close], `,"insights":${JSON.stringify(enriched.insights)}}`);
  return pieces;
}

/**
 * A kept ParseResponse (its JSON) with insights (docs/insights.md), in a format, as pieces of the
 * kept JSON (see InsightsPieces): the JSON with `enrichment` and `insights`, the CSV or the
 * workbook with category and counterparty columns.
 */
export async function insightsPieces(kept: string, format: InsightsFormat): Promise<InsightsPieces> {
  const original = parseKept(kept);
  // A result kept with its insights already (a job created with include=insights) is its own answer.
  const enriched = withInsights(original);
  if (format === "xlsx") return { kind: "xlsx", bytes: await toXlsx(enriched, { insights: true }) };
  const json: Piece[] = "insights" in original ? [[0, kept.length]] : (splice(kept, original, enriched) ?? [responseJson(enriched as unknown as ParseResponse)]);
  return format === "csv" ? { kind: "csv", json, csv: toCsv(enriched, { insights: true }) } : { kind: "json", json };
}

/** The same, joined: the enriched JSON, the CSV or the workbook (in-process callers and tests). */
export async function insightsOutput(kept: string, format: InsightsFormat): Promise<InsightsOutput> {
  const out = await insightsPieces(kept, format);
  if (out.kind === "xlsx") return out;
  return out.kind === "csv" ? { kind: "csv", json: joinPieces(kept, out.json), csv: out.csv } : { kind: "json", json: joinPieces(kept, out.json) };
}
