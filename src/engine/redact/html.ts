import { unsupportedFormat } from "../../errors.ts";
import { decodeEntities } from "../html/entities.ts";
import { extractHtmlTables } from "../html/extract.ts";
import type { SheetTable } from "../types.ts";
import { buildMatchers, detectPii, emptyValues, findHits, mergeValues, replaceSpans, type KnownPii, type Matcher, type PiiValues } from "./find.ts";
import type { PageRuns } from "./pdf-text.ts";
import { cellRun, REDACTED } from "./xlsx.ts";

/**
 * Redacts an HTML table export (the ".xls" several banks serve): the holder's data is found in
 * the tables with the spreadsheet rules, then replaced by "[REDACTED]" in the document's text and
 * attribute values. Markup is kept byte for byte elsewhere; the output is UTF-8.
 */

function decodeBytes(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder("utf-16le").decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder("utf-16be").decode(bytes.subarray(2));
  const label = /charset\s*=\s*["']?([\w-]+)/i.exec(new TextDecoder("latin1").decode(bytes.subarray(0, 2048)))?.[1];
  try {
    return new TextDecoder(label ?? "utf-8").decode(bytes);
  } catch {
    return new TextDecoder("utf-8").decode(bytes);
  }
}

const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

function sheetPages(sheets: SheetTable[]): PageRuns[] {
  return sheets.map((sheet, index) => ({
    index,
    view: [0, 0, 0, 0],
    runs: sheet.rows.flatMap((row, r) => row.flatMap((str, c) => (str.trim() ? [cellRun(str, r + 1, c + 1)] : []))),
  }));
}

/** Text with personal data replaced, or undefined when there is none. */
function cleaned(raw: string, matchers: Matcher[]): { text: string; count: number } | undefined {
  return replaceSpans(decodeEntities(raw).replace(/\u00a0/g, " "), matchers, REDACTED);
}

/** Replaces personal data in text nodes and attribute values; scripts, styles and comments pass through. */
function rewriteHtml(html: string, matchers: Matcher[]): { html: string; count: number } {
  let count = 0;
  const out = html.replace(/(<!--[\s\S]*?-->|<(script|style)\b[\s\S]*?<\/\2\s*>|<[^>]*>)|([^<]+)/gi, (whole, tag: string | undefined, _raw: string | undefined, text: string | undefined) => {
    if (text !== undefined) {
      const c = cleaned(text, matchers);
      if (!c) return whole;
      count += c.count;
      return escapeHtml(c.text);
    }
    if (!tag || tag.startsWith("<!--") || /^<(script|style)\b/i.test(tag)) return whole;
    return tag.replace(/(=\s*)("([^"]*)"|'([^']*)')/g, (attr, eq: string, _q: string, dq: string | undefined, sq: string | undefined) => {
      const c = cleaned(dq ?? sq ?? "", matchers);
      if (!c) return attr;
      count += c.count;
      return `${eq}"${escapeHtml(c.text)}"`;
    });
  });
  return { html: out, count };
}

/**
 * `tables` reads the document's tables: HTML by default; an Excel 2003 XML workbook is markup of
 * the same kind (text nodes and attribute values), so it goes through the same rewrite.
 */
export async function redactHtml(
  bytes: Uint8Array,
  known?: KnownPii,
  tables: (b: Uint8Array) => SheetTable[] = extractHtmlTables,
): Promise<{ bytes: Uint8Array; redactions: number }> {
  const pages = sheetPages(tables(bytes));
  const values = emptyValues();
  for (const p of pages) mergeValues(values, detectPii([p], known));
  const matchers = buildMatchers(values);
  const { html, count } = rewriteHtml(decodeBytes(bytes), matchers);
  // The output is UTF-8 whatever the input was; a declared charset is made to say so.
  const output = new TextEncoder().encode(html.replace(/(charset\s*=\s*["']?)[\w-]+/i, "$1utf-8"));
  // Refuse rather than return data split across markup in a way the rewrite could not see.
  if (findHits(sheetPages(tables(output)), values).length > 0) {
    throw unsupportedFormat("Personal data in this HTML export is split across markup in a way that cannot be removed; no redacted copy was produced");
  }
  return { bytes: output, redactions: count };
}
