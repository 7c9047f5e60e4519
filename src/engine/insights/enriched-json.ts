import type { Enrichment } from "./types.ts";

/**
 * The enriched rows' JSON written from the kept plain rows' JSON, without serialising the rows
 * again: each row's text gains `,"enrichment":{...}` before its closing brace, which is exactly
 * where JSON.stringify({ ...row, enrichment }) writes it (the last key). For a kept result read
 * with insights (src/output/insights.ts) this replaces serialising the rows twice (once to find
 * them in the kept text, once enriched: ~70 ms on the 76,000-row bench statement) with slicing
 * and a few distinct enrichment texts (~30 ms).
 */

/**
 * One enrichment as JSON. Rows that name no party, carry no session id and pay no fee share a
 * handful of texts (a category, a channel and their confidences), so those are written once each.
 */
export function enrichmentJsonWriter(): (e: Enrichment) => string {
  // category -> channel -> category confidence -> channel confidence -> text: lookups, no key string built per row.
  const shared = new Map<string, Map<string, Map<number, Map<number, string>>>>();
  const level = <K, V>(map: Map<K, V>, key: K, make: () => V): V => {
    let next = map.get(key);
    if (next === undefined) map.set(key, (next = make()));
    return next;
  };
  return (e) => {
    const c = e.confidence;
    if (e.counterparty !== null || e.session_id !== null || e.fee_of !== null || c.counterparty !== null || c.session_id !== null || c.fee_of !== null) return JSON.stringify(e);
    const texts = level(level(level(shared, e.category, () => new Map()), e.channel, () => new Map()), c.category, () => new Map<number, string>());
    return level(texts, c.channel, () => JSON.stringify(e));
  };
}

/**
 * A transactions array's JSON (JSON.stringify of flat row objects, as the engine writes them) with
 * `enrichment(i)` added to its i-th row; undefined when the text is not `count` such rows (the
 * caller then serialises the enriched rows itself). Rows are told apart by nextRow; the last row's
 * end is found by reading its strings, since `}]` may occur inside one.
 */
export function withEnrichmentJson(rowsJson: string, count: number, enrichment: (i: number) => string): string | undefined {
  if (count === 0) return rowsJson === "[]" ? rowsJson : undefined;
  if (rowsJson[0] !== "[" || rowsJson[1] !== "{" || rowsJson[rowsJson.length - 1] !== "]") return undefined;
  const parts: string[] = ["["];
  let at = 1;
  for (let i = 0; i < count; i++) {
    const end = i < count - 1 ? nextRow(rowsJson, at) : lastRowEnd(rowsJson, at);
    if (end < 0) return undefined;
    parts.push(rowsJson.slice(at, end), ',"enrichment":', enrichment(i), i < count - 1 ? "}," : "}]");
    at = end + 2;
  }
  return at === rowsJson.length ? parts.join("") : undefined;
}

/** After a closing quote, valid JSON has one of these next (or whitespace, which JSON.stringify never writes). */
const AFTER_STRING = new Set([",", "}", "]", ":", " ", "\t", "\n", "\r"]);

/**
 * Where the row starting at `from` ends (its `}`) when another row follows: the next `},{"` whose
 * quote opens a key. A narration may hold `},{` just before its closing quote (`"A },{"`), but a
 * closing quote is followed by `,`, `}`, `]` or `:`, never by a key's first letter; a quote inside
 * a string is escaped (`\"`), so it never completes the pattern. -1 when there is none.
 */
function nextRow(json: string, from: number): number {
  for (let at = json.indexOf('},{"', from); at >= 0; at = json.indexOf('},{"', at + 1)) {
    const next = json[at + 4];
    if (next !== undefined && !AFTER_STRING.has(next)) return at;
  }
  return -1;
}

/** Where the flat row object starting at `from` closes: its first `}` outside a string; -1 if none. */
function lastRowEnd(json: string, from: number): number {
  let inString = false;
  for (let i = from; i < json.length; i++) {
    const ch = json.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c) i++;
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x7b || ch === 0x5b) {
      // A nested object or array: not a flat row.
      if (i !== from) return -1;
    } else if (ch === 0x7d) return i;
  }
  return -1;
}

