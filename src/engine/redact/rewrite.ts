import { formatNumber, formatString } from "./content-lexer.ts";
import type { ContentUnit, ShowOp } from "./interpret.ts";

/**
 * Rewrites one text-showing operator without the cut glyphs. Each cut glyph becomes a TJ position
 * adjustment equal to its advance (width, character and word spacing), so every glyph after it is
 * drawn exactly where it was.
 */
export function rewriteShow(show: ShowOp, cut: Set<number>): string {
  const items: string[] = [];
  let run: number[] = [];
  let pending = 0;
  let hasPending = false;
  const flushRun = () => {
    if (run.length) items.push(formatString(Uint8Array.from(run)));
    run = [];
  };
  const flushAdjust = () => {
    if (hasPending && Math.abs(pending) > 1e-9) items.push(formatNumber(Math.round(pending * 1000) / 1000));
    pending = 0;
    hasPending = false;
  };
  for (const step of show.sequence) {
    if ("adjust" in step) {
      flushRun();
      pending += step.adjust;
      hasPending = true;
      continue;
    }
    const g = show.glyphs[step.glyph]!;
    if (cut.has(step.glyph)) {
      flushRun();
      // TJ numbers are thousandths of text space, scaled by the font size (and by Tz, like advances).
      const spacing = show.charSpacing + (g.isSpace ? show.wordSpacing : 0);
      pending -= g.width * 1000 + (show.fontSize !== 0 ? (spacing * 1000) / show.fontSize : 0);
      hasPending = true;
    } else {
      flushAdjust();
      run.push(...g.bytes);
    }
  }
  flushRun();
  flushAdjust();
  const tj = `[${items.join(" ")}] TJ`;
  if (show.operator === "'") return `T* ${tj}`;
  if (show.operator === '"') return `${formatNumber(show.wordSpacing)} Tw ${formatNumber(show.charSpacing)} Tc T* ${tj}`;
  return tj;
}

const encoder = new TextEncoder();

/** The unit's bytes with every operator that has cuts replaced; all other bytes are copied. */
export function rewriteUnit(unit: ContentUnit): Uint8Array {
  const parts: Uint8Array[] = [];
  let pos = 0;
  const indexes = [...new Set([...unit.cuts.keys(), ...unit.replacements.keys()])].sort((a, b) => a - b);
  for (const i of indexes) {
    const op = unit.ops[i]!;
    const show = unit.shows.get(i);
    const cut = unit.cuts.get(i);
    const replacement = unit.replacements.get(i) ?? (show && cut && cut.size > 0 ? rewriteShow(show, cut) : undefined);
    if (replacement === undefined) continue;
    parts.push(unit.bytes.subarray(pos, op.start));
    // Spaces around the replacement keep it from fusing with neighbouring tokens.
    parts.push(encoder.encode(` ${replacement} `));
    pos = op.end;
  }
  parts.push(unit.bytes.subarray(pos));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** Whether the unit has anything to rewrite. */
export const unitChanged = (unit: ContentUnit) => unit.cuts.size > 0 || unit.replacements.size > 0;
