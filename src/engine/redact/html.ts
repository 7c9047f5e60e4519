import { unsupportedFormat } from "../../errors.ts";
import { decodeEntities } from "../html/entities.ts";
import { extractHtmlTables } from "../html/extract.ts";
import type { SheetTable } from "../types.ts";
import { buildMatchers, detectPii, emptyValues, findHits, findSpans, mergeValues, replaceSpans, type KnownPii, type Matcher } from "./find.ts";
import { mapAttributeValues, scanHtml } from "./html-markup.ts";
import { percentDecoded } from "./percent.ts";
import type { PageRuns } from "./pdf-text.ts";
import { cellRun, REDACTED } from "./xlsx.ts";

/**
 * Redacts an HTML table export (the ".xls" several banks serve): the holder's data is found in
 * the tables with the spreadsheet rules, then replaced by "[REDACTED]" in every text node
 * (`<head>`'s `<title>` included) and every attribute value (title, alt, value, a `<meta>`'s
 * content). Comments, `<script>` and `<style>` are removed outright: nothing in them is needed to
 * read the statement, and they are where exporters leave the holder's data unseen. Markup is kept
 * byte for byte elsewhere; the output is UTF-8. The whole output is then searched again, markup
 * included, percent-encoding decoded (`%37%39` hides no digits), and a copy that still holds any
 * of the data is refused.
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
const readable = (raw: string) => decodeEntities(raw).replace(/\u00a0/g, " ");
/** An attribute value as a browser would follow it: entities, then percent-encoding (`href="…%37%39"`), decoded. */
const attributeReadable = (raw: string) => percentDecoded(readable(raw));

function sheetPages(sheets: SheetTable[]): PageRuns[] {
  return sheets.map((sheet, index) => ({
    index,
    view: [0, 0, 0, 0],
    runs: sheet.rows.flatMap((row, r) => row.flatMap((str, c) => (str.trim() ? [cellRun(str, r + 1, c + 1)] : []))),
  }));
}

/** Text with personal data replaced, or undefined when there is none. */
function cleaned(raw: string, matchers: Matcher[], read = readable): { text: string; count: number } | undefined {
  return replaceSpans(read(raw), matchers, REDACTED);
}

/** Replaces personal data in text nodes and attribute values; drops comments, scripts and styles. */
function rewriteHtml(html: string, matchers: Matcher[]): { html: string; count: number } {
  let count = 0;
  const out: string[] = [];
  for (const piece of scanHtml(html)) {
    if (piece.kind === "dropped") {
      // Removed whole; what it held still counts as removed.
      count += findSpans(readable(piece.raw), matchers).length;
      continue;
    }
    if (piece.kind === "text") {
      const c = cleaned(piece.raw, matchers);
      if (c) count += c.count;
      out.push(c ? escapeHtml(c.text) : piece.raw);
      continue;
    }
    out.push(
      mapAttributeValues(piece.raw, (value) => {
        const c = cleaned(value, matchers, attributeReadable);
        if (!c) return undefined;
        count += c.count;
        return escapeHtml(c.text);
      }),
    );
  }
  return { html: out.join(""), count };
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
  const text = html.replace(/(charset\s*=\s*["']?)[\w-]+/i, "$1utf-8");
  const output = new TextEncoder().encode(text);
  // Re-check the whole output: the tables as a reader sees them (data split over inline markup,
  // "ADE<b>YEMI</b>", joins up there), and every character of the file, markup included.
  if (findHits(sheetPages(tables(output)), values).length > 0 || findSpans(percentDecoded(readable(text)), matchers).length > 0) {
    throw unsupportedFormat("Personal data in this HTML export is split across markup in a way that cannot be removed; no redacted copy was produced");
  }
  return { bytes: output, redactions: count };
}
