import type { Line } from "../layout/lines.ts";
import type { DetectionInput } from "./detect.ts";

/** The parts of a table scan that bank detection reads (layout/rows.ts TableScan). */
export interface ScannedZones {
  /** Lines outside the table's rows, sorted by page and position. */
  outside: readonly Line[];
  /** The table's rows: their page and the first and last baseline they cover. */
  rows: readonly { page: number; y: number; lastY: number }[];
  headerText: string;
}

/**
 * Letterhead and summary are on the first pages, closing summaries on the last; footers repeat on
 * every page, so a long statement's middle pages add nothing but work (a 2,000-page statement's
 * footers would be searched for every marker of every profile).
 */
const HEAD_PAGES = 3;
const TAIL_PAGES = 2;

/**
 * What bank detection may read: the letterhead, summary block and footers, never the table body.
 * Lines the table scan left "outside" although they sit between two rows of their page (the end of
 * a narration printed too far below its row, a line that fits no column) are narration text:
 * "TRANSFER FROM OPAY" or a wallet's name there must not decide the statement's bank.
 */
export function detectionInput(scan: ScannedZones, producer: string): DetectionInput {
  const bands = new Map<number, { top: number; bottom: number }>();
  for (const r of scan.rows) {
    const b = bands.get(r.page);
    if (!b) bands.set(r.page, { top: r.y, bottom: r.lastY });
    else {
      b.top = Math.min(b.top, r.y);
      b.bottom = Math.max(b.bottom, r.lastY);
    }
  }
  const lastPage = scan.outside.reduce((m, l) => Math.max(m, l.page), 0);
  const text = scan.outside
    .filter((l) => {
      if (l.page > HEAD_PAGES && l.page <= lastPage - TAIL_PAGES) return false;
      const b = bands.get(l.page);
      return !b || l.y < b.top || l.y > b.bottom;
    })
    .map((l) => l.text)
    .join("\n");
  return { text, headings: scan.headerText, producer };
}
