/**
 * Display formatting. Amounts stay strings and are summed as BigInt kobo: the page never does money
 * arithmetic in floating point (charts convert to numbers only to draw).
 */

/** "1234567.50" → "1,234,567.50", on the string. */
export function money(s: string): string {
  const m = /^(-?)(\d+)(\.\d+)?$/.exec(s);
  if (!m) return s;
  return `${m[1]}${(m[2] ?? "").replace(/\B(?=(\d{3})+(?!\d))/g, ",")}${m[3] ?? ""}`;
}

export const day = (iso: string) => (iso ? iso.slice(0, 10) : "");
export const isZero = (s: string) => /^-?0+(\.0+)?$/.test(s);
export const blankZero = (s: string) => (isZero(s) || s === "" ? "" : money(s));
export const plural = (n: number, word: string) => `${n.toLocaleString("en")} ${word}${n === 1 ? "" : "s"}`;

/** "1234.5" / "-12.05" → kobo as BigInt; anything else → 0n. */
export function kobo(s: string): bigint {
  const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(s.trim());
  if (!m) return 0n;
  const v = BigInt(m[2] ?? "0") * 100n + BigInt((m[3] ?? "").padEnd(2, "0") || "0");
  return m[1] ? -v : v;
}

/** Kobo back to a naira string with two decimals. */
export function naira(k: bigint): string {
  const neg = k < 0n;
  const a = neg ? -k : k;
  return `${neg ? "-" : ""}${a / 100n}.${(a % 100n).toString().padStart(2, "0")}`;
}

/** Seconds as m:ss (or h:mm:ss). */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}
