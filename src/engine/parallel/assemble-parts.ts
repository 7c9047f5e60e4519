import { assembleScans } from "../assemble.ts";
import type { Line } from "../layout/lines.ts";
import type { ScanState } from "../layout/rows.ts";
import { stitchBrokenDates } from "../layout/stitch.ts";
import { scanSection, type SectionScan } from "../sections/read.ts";
import { splitSections } from "../sections/split.ts";
import type { ParseResponse } from "../types.ts";
import { joinScans } from "./tail-scan.ts";

/** The first pages' lines as the planning task read them, with their scan when it made one (scanHead). */
export interface HeadPart {
  lines: Line[];
  scan: ScanState | null;
}

/**
 * PURE: assembleLines over head.lines followed by tailLines, with the table scanned in two parts
 * (tail-scan.ts) when that reads the same: the document is one account section and no date
 * broken over lines was put back together (both scans read the lines as they were built).
 * Otherwise, or when joinScans refuses, the sections are scanned in one pass as usual.
 */
export function assembleParts(head: HeadPart, tailLines: Line[], tail: string | null, producer: string, opts: { bank?: string } = {}): ParseResponse {
  const lines = head.lines.concat(tailLines);
  const stitched = stitchBrokenDates(lines);
  const sections = splitSections(stitched);
  let joined: SectionScan | null = null;
  if (head.scan && tail !== null && sections.length === 1 && stitched.every((l, i) => l === lines[i])) {
    const scan = joinScans(sections[0]!, head.scan, head.lines.length, tail);
    if (scan) joined = { scan, headerless: false };
  }
  return assembleScans(joined ? [joined] : sections.map(scanSection), producer, opts);
}
