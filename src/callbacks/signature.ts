import { createHmac } from "node:crypto";
import { safeEqual } from "../crypto.ts";

/** The header a completion callback is signed in (docs/batch.md has how to verify it). */
export const SIGNATURE_HEADER = "stp-signature";

/** HMAC-SHA256 of `${t}.${body}` with `secret`, as lower-case hex. */
export const signPayload = (secret: string, t: number, body: string): string => createHmac("sha256", secret).update(`${t}.${body}`).digest("hex");

/**
 * `t=<unix seconds>,v1=<hex>[,v1=<hex>]`: the timestamp is signed with the body, so a captured
 * callback cannot be replayed later under a fresh time. One v1 per secret that signs (two during
 * a rotation's overlap), so a receiver may hold either.
 */
export function signatureHeader(secrets: readonly string[], body: string, t: number): string {
  return [`t=${t}`, ...secrets.map((s) => `v1=${signPayload(s, t, body)}`)].join(",");
}

/**
 * What a receiver does (also used by the tests): the header's timestamp within `toleranceS` of
 * `now`, and one of its v1 signatures equal to ours.
 */
export function verifySignature(header: string, body: string, secret: string, toleranceS = 300, now = Date.now() / 1000): boolean {
  const parts = header.split(",").map((p) => p.trim().split("="));
  const t = Number(parts.find(([k]) => k === "t")?.[1]);
  if (!Number.isInteger(t) || Math.abs(now - t) > toleranceS) return false;
  const expected = signPayload(secret, t, body);
  return parts.some(([k, v]) => k === "v1" && v !== undefined && safeEqual(v, expected));
}
