/**
 * Tables from an HTML document (the "Excel" download several banks serve is HTML with an .xls name).
 * A tolerant scanner rather than a DOM: it only needs table/tr/td/th, forgives missing end tags the
 * way browsers do, expands colspan so columns stay aligned, and ignores script, style and comments.
 */
import { payloadTooLarge } from "../../errors.ts";
import type { SheetTable } from "../types.ts";
import { capText } from "../text-cap.ts";
import { decodeEntities } from "./entities.ts";

interface OpenTable {
  rows: string[][];
  row: string[] | null;
  cell: string[] | null;
  colspan: number;
}

/** Most columns one colspan may add: real exports use a handful; a huge value is hostile. */
const MAX_COLSPAN = 100;
/** Most cells (after colspan) in one document: 200,000 rows of 10 columns, far past any statement. */
export const MAX_HTML_CELLS = 2_000_000;

function decodeBytes(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder("utf-16le").decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder("utf-16be").decode(bytes);
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 2048));
  const label = /charset\s*=\s*["']?([\w-]+)/i.exec(head)?.[1];
  if (label) {
    try {
      return new TextDecoder(label).decode(bytes);
    } catch {
      // Unknown label: fall through to UTF-8, the encoding nearly every export uses.
    }
  }
  return new TextDecoder("utf-8").decode(bytes);
}

const tidy = (s: string) => decodeEntities(s).replace(/[\s\u00a0]+/g, " ").trim();

export function extractHtmlTables(bytes: Uint8Array): SheetTable[] {
  const html = decodeBytes(bytes);
  const done: SheetTable[] = [];
  const stack: OpenTable[] = [];
  const top = () => stack[stack.length - 1];

  let cells = 0;
  const closeCell = (t: OpenTable) => {
    if (t.cell === null) return;
    cells += t.colspan;
    if (cells > MAX_HTML_CELLS) throw payloadTooLarge(`The document has more than ${MAX_HTML_CELLS} table cells`);
    const text = capText(tidy(t.cell.join("")));
    t.row ??= [];
    t.row.push(text);
    for (let i = 1; i < t.colspan; i++) t.row.push("");
    t.cell = null;
  };
  const closeRow = (t: OpenTable) => {
    closeCell(t);
    if (t.row === null) return;
    while (t.row.length > 0 && t.row[t.row.length - 1] === "") t.row.pop();
    t.rows.push(t.row);
    t.row = null;
  };
  const closeTable = () => {
    const t = stack.pop();
    if (!t) return;
    closeRow(t);
    if (t.rows.some((r) => r.length > 0)) done.push({ name: `table ${done.length + 1}`, rows: t.rows });
  };

  // Lower-cased copy for finding </script> and </style>, made once and only if needed.
  let lowered: string | undefined;
  // A tag's attributes stop at the next '<' ([^<>]), so a '<' without its '>' is scanned once, not
  // to the end of the document for every '<' (which made "<a<a<a…" quadratic).
  const tagRe = /<!--[\s\S]*?(?:-->|$)|<(\/?)([a-zA-Z][\w:-]*)([^<>]*)>|<![^<>]*>/g;
  let last = 0;
  for (let m = tagRe.exec(html); m !== null; m = tagRe.exec(html)) {
    const t = top();
    if (t?.cell && m.index > last) t.cell.push(html.slice(last, m.index));
    last = tagRe.lastIndex;
    const name = m[2]?.toLowerCase();
    if (name === undefined) continue; // comment or declaration
    const closing = m[1] === "/";
    if (!closing && (name === "script" || name === "style")) {
      // Skip raw text up to the matching end tag.
      lowered ??= html.toLowerCase();
      const end = lowered.indexOf(`</${name}`, tagRe.lastIndex);
      tagRe.lastIndex = end === -1 ? html.length : end;
      last = tagRe.lastIndex;
      continue;
    }
    switch (name) {
      case "table":
        if (closing) closeTable();
        else stack.push({ rows: [], row: null, cell: null, colspan: 1 });
        break;
      case "tr":
        if (t) {
          closeRow(t);
          if (!closing) t.row = [];
        }
        break;
      case "td":
      case "th":
        if (!t) break;
        closeCell(t);
        if (!closing) {
          t.row ??= [];
          t.cell = [];
          const span = Number(/colspan\s*=\s*["']?(\d+)/i.exec(m[3] ?? "")?.[1] ?? 1);
          t.colspan = Math.min(MAX_COLSPAN, Math.max(1, span));
        }
        break;
      case "br":
      case "p":
      case "div":
        if (t?.cell) t.cell.push(" ");
        break;
      default:
        break;
    }
  }
  while (stack.length > 0) closeTable();
  return done;
}
