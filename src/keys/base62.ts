const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/**
 * `length` characters drawn uniformly from [0-9A-Za-z]. Rejection sampling (bytes >= 248 are
 * dropped) keeps every character equally likely, so each carries log2(62) ≈ 5.95 bits.
 */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const b of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (b >= 248) continue;
      out += ALPHABET[b % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** Fixed-width base62 rendering of a non-negative integer (left-padded with '0'). */
export function encodeBase62(n: number, width: number): string {
  let out = "";
  let v = Math.floor(n);
  while (v > 0) {
    out = ALPHABET[v % 62] + out;
    v = Math.floor(v / 62);
  }
  return out.padStart(width, "0");
}
