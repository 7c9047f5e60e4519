import { assembleScans } from "../assemble.ts";
import type { Line } from "../layout/lines.ts";
import { stitchBrokenDates } from "../layout/stitch.ts";
import { scanSection, type SectionScan } from "../sections/read.ts";
import { splitSections } from "../sections/split.ts";
import type { ParseResponse } from "../types.ts";
import { type HeadScan, joinScans, stitchesNothing } from "./tail-scan.ts";

/** The first pages' lines as the planning task read them, with their scan when it made one (scanHead). */
export interface HeadPart {
  lines: Line[];
  scan: HeadScan | null;
}

/**
 * PURE: assembleLines over head.lines followed by tailLines, with the table scanned in two parts
 * (joinParts) when that reads the same; otherwise the sections are scanned in one pass as usual.
 */
export function assembleParts(head: HeadPart, tailLines: Line[], tail: string | null, producer: string, opts: { bank?: string } = {}): ParseResponse {
  const { lines, joined } = joinParts(head, tailLines, tail);
  if (joined) return assembleScans([joined], producer, opts);
  return assembleScans(splitSections(stitchBrokenDates(lines)).map(scanSection), producer, opts);
}

/**
 * PURE: the document's lines, and its one section's table from the two parts' scans
 * (tail-scan.ts) when the document is one account section, stitching changes no line (both
 * scans read the lines as they were built) and joinScans accepts; else null. Consumes head.scan.
 */
export function joinParts(head: HeadPart, tailLines: Line[], tail: string | null): { lines: Line[]; joined: SectionScan | null } {
  const lines = head.lines.concat(tailLines);
  // Each part stitches nothing (checked where it was scanned); nor does anything across the cut.
  if (!head.scan || tail === null || !stitchesNothing(acrossCut(head.lines, tailLines))) return { lines, joined: null };
  const sections = splitSections(lines);
  const joined = sections.length === 1 ? joinScans(sections[0]!, head.scan, head.lines.length, tail) : null;
  return { lines, joined: joined && { scan: joined, headerless: false } };
}

/** Lines a date or time piece may run over (layout/stitch.ts: MAX_PIECES + 2 lines on). */
const PIECE_REACH = 6;

/**
 * The lines where stitching could join a piece before the cut to one after it: a date's pieces
 * run at most PIECE_REACH lines on, a cut time's rest only onto the next page. Stitching the whole
 * document changes nothing when stitching each part and these lines changes nothing: every other
 * date or time looks at lines of its own part only (stitching never looks back).
 */
function acrossCut(head: Line[], tail: Line[]): Line[] {
  const lastPage = head.at(-1)?.page;
  let from = head.length;
  while (from > 0 && (head.length - from < PIECE_REACH || head[from - 1]!.page === lastPage)) from--;
  const firstPage = tail[0]?.page;
  let to = 0;
  while (to < tail.length && (to < PIECE_REACH || tail[to]!.page === firstPage)) to++;
  return head.slice(from).concat(tail.slice(0, to));
}
