import { unsupportedFormat } from "../../errors.ts";
import { decodeEntities } from "../html/entities.ts";
import { inflateEntry, readCentralDirectory } from "../xlsx/zip-guard.ts";
import { findSpans, type Matcher } from "./find.ts";
import { percentDecoded } from "./percent.ts";

/**
 * The last check of a redacted workbook: every part of the written zip (sheets, shared strings,
 * relationship targets, comments, drawings, defined names, properties), XML entities and
 * percent-encoding decoded, is searched with the same rules. A part the redaction does not know
 * about can still carry the data; a copy that does is refused, never returned.
 */
export function sweepWorkbook(bytes: Uint8Array, matchers: Matcher[]): void {
  // The copy was just written by exceljs from a workbook that passed the zip guard: its size is bounded already.
  for (const entry of readCentralDirectory(bytes, Number.MAX_SAFE_INTEGER)) {
    const text = percentDecoded(decodeEntities(new TextDecoder().decode(inflateEntry(bytes, entry))));
    const spans = findSpans(text, matchers);
    if (spans.length === 0) continue;
    const kinds = [...new Set(spans.map((s) => s.kind))].join(", ");
    throw unsupportedFormat(`Personal data (${kinds}) remains in the workbook part ${entry.name} in a form that cannot be removed; no redacted copy was produced`);
  }
}
