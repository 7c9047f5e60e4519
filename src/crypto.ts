import { createHash, timingSafeEqual } from "node:crypto";

export const sha256Hex = (s: string): string => createHash("sha256").update(s).digest("hex");

/** Constant-time comparison of two strings (false when lengths differ). */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** URL-safe random identifier with `bytes` random bytes. */
export const randomToken = (bytes = 16): string => Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString("base64url");
