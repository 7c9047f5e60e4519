/**
 * Whitespace as JavaScript's `\s` and String.prototype.trim define it (ECMAScript WhiteSpace and
 * LineTerminator), for the hot paths that test it character by character instead of by regex.
 */
export const isJsSpace = (c: number): boolean =>
  c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;

/**
 * Runs of whitespace as one space, none at the ends (`s.replace(/\s+/g, " ").trim()`). Text that
 * is already so (single ASCII spaces between words: nearly every narration) is answered as it is,
 * without the regex's new string.
 */
export function squeezeSpaces(s: string): string {
  const n = s.length;
  let clean = n === 0 || (s.charCodeAt(0) !== 0x20 && s.charCodeAt(n - 1) !== 0x20);
  for (let i = 0; clean && i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x20) clean = s.charCodeAt(i + 1) !== 0x20;
    else if (isJsSpace(c)) clean = false;
  }
  return clean ? s : s.replace(/\s+/g, " ").trim();
}
