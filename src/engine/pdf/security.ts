/**
 * The PDF standard security handler (ISO 32000-1 7.6.3, ISO 32000-2 7.6.4) on plain values: the
 * file key from a password, the per-object key and the ciphers. Two readers feed it (the guard's
 * own byte-level object reader and redaction's pdf-lib objects), so each keeps its parsing and
 * hands over only the entries of the /Encrypt dictionary and the trailer's first /ID string.
 */
import { createCipheriv, createDecipheriv, createHash } from "node:crypto";

/** How a crypt filter encrypts strings or streams. */
export type CryptMethod = "identity" | "rc4" | "aes";

export interface StandardSecurity {
  v: number;
  r: number;
  /** /Length in bits (40 when absent); revisions 3–4 only. */
  length: number;
  o: Uint8Array;
  u: Uint8Array;
  oe?: Uint8Array;
  ue?: Uint8Array;
  p: number;
  encryptMetadata: boolean;
  stmF: CryptMethod;
  strF: CryptMethod;
  /** The first string of the trailer's /ID (empty when there is none). */
  id0: Uint8Array;
}

/**
 * The method of the crypt filter named by /StmF or /StrF (`filter`, undefined when absent), given
 * the /CFM of that filter's /CF entry. Before V4 there are no crypt filters and everything is RC4.
 */
export function cryptMethod(v: number, filter: string | undefined, cfm: string | undefined): CryptMethod {
  if (v < 4) return "rc4";
  if ((filter ?? "Identity") === "Identity") return "identity";
  return cfm === "V2" ? "rc4" : cfm === "AESV2" || cfm === "AESV3" ? "aes" : "identity";
}

/** A password as the revision expects it: UTF-8 for revisions 5–6 (as pdf.js sends it), one byte per character before. */
export const passwordBytes = (password: string, r: number): Uint8Array => new Uint8Array(Buffer.from(password, r >= 5 ? "utf8" : "latin1"));

/**
 * The file key the password opens, as the user's or the owner's password (viewers accept either),
 * or undefined when it is neither. The password comes encoded by passwordBytes.
 */
export function fileKey(sec: StandardSecurity, password: Uint8Array): Uint8Array | undefined {
  if (sec.r >= 5) {
    const pw = password.subarray(0, 127);
    return aes256UserKey(sec, pw) ?? aes256OwnerKey(sec, pw);
  }
  const length = legacyKeyLength(sec);
  const asUser = legacyFileKey(sec, padPassword(password), length);
  if (userKeyMatches(sec, asUser)) return asUser;
  const asOwner = legacyFileKey(sec, userFromOwner(sec, padPassword(password), length), length);
  return userKeyMatches(sec, asOwner) ? asOwner : undefined;
}

/**
 * How the empty password opens a file, as desktop readers try it (it is the owner password of
 * files written with an empty owner and a set user password): as the user password ("user"),
 * as the owner password ("owner", with the file key), or not at all.
 */
export function emptyPasswordOpens(sec: StandardSecurity): { as: "user" } | { as: "owner"; key: Uint8Array } | undefined {
  if (sec.r >= 5) {
    if (aes256UserKey(sec, EMPTY)) return { as: "user" };
    const key = aes256OwnerKey(sec, EMPTY);
    return key ? { as: "owner", key } : undefined;
  }
  const length = legacyKeyLength(sec);
  if (userKeyMatches(sec, legacyFileKey(sec, padPassword(EMPTY), length))) return { as: "user" };
  const key = legacyFileKey(sec, userFromOwner(sec, padPassword(EMPTY), length), length);
  return userKeyMatches(sec, key) ? { as: "owner", key } : undefined;
}

/**
 * Revisions 2–4: the user password itself, recovered from /O with the owner password (Algorithm 7
 * yields it padded; the padding string is cut off), or undefined when the owner password is wrong.
 * pdf.js only tries a non-empty password as the owner's, so it is given this one instead.
 */
export function userPasswordFromOwner(sec: StandardSecurity, owner: Uint8Array): Uint8Array | undefined {
  if (sec.r >= 5) return undefined;
  const length = legacyKeyLength(sec);
  const padded = userFromOwner(sec, padPassword(owner), length);
  if (!userKeyMatches(sec, legacyFileKey(sec, padded, length))) return undefined;
  for (let n = 0; n <= 32; n++) if (same(padded.subarray(n), PAD.subarray(0, 32 - n))) return padded.slice(0, n);
  return padded.slice();
}

/**
 * Revisions 5–6: new /U and /UE that let the empty user password unwrap `key` (Algorithms 8 and
 * 9), for a copy of a file that only the empty owner password opens. The salts are derived from
 * the key so the same file always gets the same values; /O, /OE and /Perms stay as they are.
 */
export function emptyUserEntries(sec: Pick<StandardSecurity, "r">, key: Uint8Array): { u: Uint8Array; ue: Uint8Array } {
  const salts = sha256(key, Uint8Array.from(Buffer.from("empty user password", "latin1")));
  const validation = salts.subarray(0, 8);
  const keySalt = salts.subarray(8, 16);
  const hash = (salt: Uint8Array) => (sec.r === 5 ? sha256(EMPTY, salt) : hash2B(EMPTY, salt, EMPTY));
  const u = new Uint8Array(48);
  u.set(hash(validation), 0);
  u.set(validation, 32);
  u.set(keySalt, 40);
  const c = createCipheriv("aes-256-cbc", hash(keySalt), new Uint8Array(16));
  c.setAutoPadding(false);
  const ue = new Uint8Array(Buffer.concat([c.update(key.subarray(0, 32)), c.final()]));
  return { u, ue };
}

/**
 * Algorithm 1: the key for one object's strings and streams. Revisions 5–6 use the file key
 * itself for every object; before that it is salted with the object number (and "sAlT" for AES).
 */
export function objectKey(sec: Pick<StandardSecurity, "r">, key: Uint8Array, num: number, gen: number, method: CryptMethod): Uint8Array {
  if (sec.r >= 5) return key;
  const salt = method === "aes" ? SALT : new Uint8Array(0);
  return md5(key, Uint8Array.of(num & 0xff, (num >> 8) & 0xff, (num >> 16) & 0xff, gen & 0xff, (gen >> 8) & 0xff), salt).subarray(0, Math.min(16, key.length + 5));
}

export interface DecryptOptions {
  /**
   * Decrypt AES data with a bad padding or a ragged length anyway, as viewers do. Redaction wants
   * that (the content must survive); the guard does not (it sizes what pdf.js will actually get).
   */
  tolerant?: boolean;
}

/** Decrypts one string or stream with its object key. */
export function decrypt(method: CryptMethod, key: Uint8Array, data: Uint8Array, options: DecryptOptions = {}): Uint8Array {
  if (method === "identity") return data;
  return method === "aes" ? aesCbcDecrypt(key, data, options.tolerant ?? false) : rc4(key, data);
}

/** Decrypts one string or stream of object num/gen with the file key; AES-256 files use AES only. */
export function decryptObjectData(sec: StandardSecurity, key: Uint8Array, num: number, gen: number, method: CryptMethod, data: Uint8Array, options: DecryptOptions = {}): Uint8Array {
  const effective = sec.r >= 5 && method !== "identity" ? "aes" : method;
  return decrypt(effective, objectKey(sec, key, num, gen, effective), data, options);
}

// Standard padding string (ISO 32000-1, 7.6.3.3, algorithm 2).
const PAD = Uint8Array.from(Buffer.from("28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a", "hex"));
const SALT = Uint8Array.from(Buffer.from("sAlT", "latin1"));
const EMPTY = new Uint8Array(0);

const digest = (algorithm: string, parts: Uint8Array[]): Uint8Array => {
  const h = createHash(algorithm);
  for (const p of parts) h.update(p);
  return new Uint8Array(h.digest());
};
const md5 = (...parts: Uint8Array[]) => digest("md5", parts);
const sha256 = (...parts: Uint8Array[]) => digest("sha256", parts);
const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

export function rc4(key: Uint8Array, data: Uint8Array): Uint8Array {
  const s = new Uint8Array(256);
  for (let i = 0; i < 256; i++) s[i] = i;
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i]! + key[i % key.length]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
  }
  const out = new Uint8Array(data.length);
  for (let k = 0, i = 0, j = 0; k < data.length; k++) {
    i = (i + 1) & 0xff;
    j = (j + s[i]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
    out[k] = data[k]! ^ s[(s[i]! + s[j]!) & 0xff]!;
  }
  return out;
}

/** AES-CBC with the IV in the first 16 bytes; anything shorter than IV plus one block is empty. */
function aesCbcDecrypt(key: Uint8Array, data: Uint8Array, tolerant: boolean): Uint8Array {
  if (data.length < 32 || data.length % 16 !== 0) return tolerant && data.length >= 16 ? aesUnpadded(key, data) : new Uint8Array(0);
  try {
    const d = createDecipheriv(key.length === 32 ? "aes-256-cbc" : "aes-128-cbc", key, data.subarray(0, 16));
    return new Uint8Array(Buffer.concat([d.update(data.subarray(16)), d.final()]));
  } catch {
    // Bad padding (or a key of the wrong size): pdf.js gets nothing usable either, unless tolerant.
    return tolerant ? aesUnpadded(key, data) : new Uint8Array(0);
  }
}

/** The whole blocks after the IV, without the padding check. */
function aesUnpadded(key: Uint8Array, data: Uint8Array): Uint8Array {
  const body = data.subarray(16, 16 + Math.floor((data.length - 16) / 16) * 16);
  const d = createDecipheriv(key.length === 32 ? "aes-256-cbc" : "aes-128-cbc", key, data.subarray(0, 16));
  d.setAutoPadding(false);
  return new Uint8Array(Buffer.concat([d.update(body), d.final()]));
}

const padPassword = (pw: Uint8Array) => {
  const out = new Uint8Array(32);
  out.set(pw.subarray(0, 32));
  out.set(PAD.subarray(0, Math.max(0, 32 - pw.length)), Math.min(32, pw.length));
  return out;
};

/** Algorithm 2 (revisions 2–4): the file key for a padded user password. */
function legacyFileKey(sec: StandardSecurity, padded: Uint8Array, length: number): Uint8Array {
  // Bit operations, not writeInt32LE: producers write /P signed or unsigned, and both mean the same bits.
  const p = sec.p;
  const pBytes = Uint8Array.of(p & 0xff, (p >> 8) & 0xff, (p >> 16) & 0xff, (p >>> 24) & 0xff);
  const noMetadata = sec.r >= 4 && !sec.encryptMetadata ? Uint8Array.of(0xff, 0xff, 0xff, 0xff) : EMPTY;
  let hash = md5(padded, sec.o.subarray(0, 32), pBytes, sec.id0, noMetadata);
  if (sec.r >= 3) for (let i = 0; i < 50; i++) hash = md5(hash.subarray(0, length));
  return hash.subarray(0, length);
}

/** Algorithm 7 (first half): the padded user password, decrypted from /O with the owner password. */
function userFromOwner(sec: StandardSecurity, ownerPadded: Uint8Array, length: number): Uint8Array {
  let hash = md5(ownerPadded);
  if (sec.r >= 3) for (let i = 0; i < 50; i++) hash = md5(hash.subarray(0, length));
  const key = hash.subarray(0, length);
  if (sec.r === 2) return rc4(key, sec.o.subarray(0, 32));
  let x = sec.o.subarray(0, 32);
  for (let i = 19; i >= 0; i--) x = rc4(key.map((b) => b ^ i), x);
  return x;
}

/** Algorithm 6: the key opens the file when it reproduces /U (only its first 16 bytes from revision 3). */
function userKeyMatches(sec: StandardSecurity, key: Uint8Array): boolean {
  if (sec.r === 2) return same(rc4(key, PAD), sec.u.subarray(0, 32));
  let x = rc4(key, md5(PAD, sec.id0));
  for (let i = 1; i <= 19; i++) x = rc4(key.map((b) => b ^ i), x);
  return same(x.subarray(0, 16), sec.u.subarray(0, 16));
}

/** Revision 2 is always 40-bit; a /Length outside 40–128 would give a key RC4 and MD5 cannot use. */
const legacyKeyLength = (sec: StandardSecurity) => (sec.r === 2 ? 5 : Math.min(16, Math.max(5, Math.floor(sec.length / 8))));

/** Algorithms 2.A and 11 (revisions 5–6): the password's hash checked against /U, then /UE unwrapped. */
function aes256UserKey(sec: StandardSecurity, pw: Uint8Array): Uint8Array | undefined {
  const { u } = sec;
  if (u.length < 48 || !same(aes256Hash(sec, pw, u.subarray(32, 40), EMPTY), u.subarray(0, 32))) return undefined;
  return unwrapKey(aes256Hash(sec, pw, u.subarray(40, 48), EMPTY), sec.ue);
}

/** Algorithms 2.A and 12 (revisions 5–6): the password's hash checked against /O (salted with /U), then /OE unwrapped. */
function aes256OwnerKey(sec: StandardSecurity, pw: Uint8Array): Uint8Array | undefined {
  const { o, u } = sec;
  if (o.length < 48 || u.length < 48 || !same(aes256Hash(sec, pw, o.subarray(32, 40), u.subarray(0, 48)), o.subarray(0, 32))) return undefined;
  return unwrapKey(aes256Hash(sec, pw, o.subarray(40, 48), u.subarray(0, 48)), sec.oe);
}

const aes256Hash = (sec: StandardSecurity, pw: Uint8Array, salt: Uint8Array, udata: Uint8Array) => (sec.r === 5 ? sha256(pw, salt, udata) : hash2B(pw, salt, udata));

function unwrapKey(kek: Uint8Array, wrapped: Uint8Array | undefined): Uint8Array | undefined {
  if (!wrapped || wrapped.length < 32) return undefined;
  const d = createDecipheriv("aes-256-cbc", kek, new Uint8Array(16));
  d.setAutoPadding(false);
  return new Uint8Array(Buffer.concat([d.update(wrapped.subarray(0, 32)), d.final()]));
}

/** Algorithm 2.B of ISO 32000-2 (7.6.4.3.4): the hash of revision 6. */
export function hash2B(password: Uint8Array, salt: Uint8Array, udata: Uint8Array): Uint8Array {
  let k = sha256(password, salt, udata);
  for (let round = 0; ; round++) {
    const unit = new Uint8Array(password.length + k.length + udata.length);
    unit.set(password, 0);
    unit.set(k, password.length);
    unit.set(udata, password.length + k.length);
    const k1 = new Uint8Array(unit.length * 64);
    for (let i = 0; i < 64; i++) k1.set(unit, i * unit.length);
    const c = createCipheriv("aes-128-cbc", k.subarray(0, 16), k.subarray(16, 32));
    c.setAutoPadding(false);
    const e = new Uint8Array(Buffer.concat([c.update(k1), c.final()]));
    let sum = 0;
    for (let i = 0; i < 16; i++) sum += e[i]!;
    k = digest(["sha256", "sha384", "sha512"][sum % 3]!, [e]);
    // At least 64 rounds; then stop once the last byte of E is at most (rounds done) - 32.
    if (round >= 63 && e[e.length - 1]! <= round - 31) return k.subarray(0, 32);
  }
}
