/**
 * Display formatting. Amounts stay strings and are summed as BigInt kobo through the engine's money
 * module: the page never does money arithmetic in floating point (charts convert only to draw).
 */

import { groupThousands as money } from "../src/engine/money.ts";

export { money };

export const day = (iso: string) => (iso ? iso.slice(0, 10) : "");
export const isZero = (s: string) => /^-?0+(\.0+)?$/.test(s);
export const blankZero = (s: string) => (isZero(s) || s === "" ? "" : money(s));
export const plural = (n: number, word: string) => `${n.toLocaleString("en")} ${word}${n === 1 ? "" : "s"}`;

/** Seconds as m:ss (or h:mm:ss). */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}
