import type { KeyTier } from "./tiers.ts";
import { encodeBase62, randomBase62 } from "./base62.ts";

/**
 * Raw API key shape: `stp_<tier>_<secret><checksum>`.
 * - `stp_` names the service, so secret scanners and humans recognise a leaked key;
 * - the tier is readable without a lookup (`live`, `first_party`, `test`);
 * - the secret is 27 base62 characters, ≈160 random bits (SPEC asks for at least 128);
 * - the checksum is the CRC-32 of everything before it in 6 base62 characters, so a mistyped or
 *   truncated key is told apart from a revoked one without touching the database.
 * Only the SHA-256 of the whole key is stored; `prefix` (service, tier and the first 4 secret
 * characters, ≈24 bits, leaving ≈136 secret) is the non-secret head shown in listings.
 */
export const KEY_SERVICE_PREFIX = "stp";
const SECRET_CHARS = 27;
const CHECKSUM_CHARS = 6;
const PREFIX_SECRET_CHARS = 4;

const KEY_PATTERN = new RegExp(
  `^${KEY_SERVICE_PREFIX}_(live|first_party|test)_([0-9A-Za-z]{${SECRET_CHARS}})([0-9A-Za-z]{${CHECKSUM_CHARS}})$`,
);

const checksum = (body: string): string => encodeBase62(Bun.hash.crc32(body), CHECKSUM_CHARS);

export interface NewRawKey {
  key: string;
  prefix: string;
}

export function generateRawKey(tier: KeyTier): NewRawKey {
  const body = `${KEY_SERVICE_PREFIX}_${tier}_${randomBase62(SECRET_CHARS)}`;
  const key = body + checksum(body);
  return { key, prefix: key.slice(0, body.length - SECRET_CHARS + PREFIX_SECRET_CHARS) };
}

/** The tier a well-formed key claims, or undefined when the shape or checksum is wrong. */
export function parseRawKey(key: string): { tier: KeyTier } | undefined {
  const m = KEY_PATTERN.exec(key);
  if (!m) return undefined;
  const body = key.slice(0, key.length - CHECKSUM_CHARS);
  if (checksum(body) !== m[3]) return undefined;
  return { tier: m[1] as KeyTier };
}
