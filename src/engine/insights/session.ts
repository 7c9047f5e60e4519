/**
 * A NIBSS Instant Payment session id is 30 digits: the sending institution's 6-digit code, the
 * time the session began as yyMMddHHmmss, and a 12-digit serial. A 30-digit run whose middle reads
 * as a real time is almost certainly one; any other 30-digit run is less sure.
 */
const THIRTY_DIGITS = /(?<!\d)\d{30}(?!\d)/;

function plausibleTime(id: string): boolean {
  const [mm, dd, hh, mi, ss] = [8, 10, 12, 14, 16].map((i) => Number(id.slice(i, i + 2)));
  return mm !== undefined && mm >= 1 && mm <= 12 && dd !== undefined && dd >= 1 && dd <= 31 && hh !== undefined && hh < 24 && mi !== undefined && mi < 60 && ss !== undefined && ss < 60;
}

export function sessionIdOf(narration: string, reference: string): { id: string; confidence: number } | null {
  const m = THIRTY_DIGITS.exec(narration) ?? THIRTY_DIGITS.exec(reference);
  if (!m) return null;
  return { id: m[0], confidence: plausibleTime(m[0]) ? 0.95 : 0.7 };
}
