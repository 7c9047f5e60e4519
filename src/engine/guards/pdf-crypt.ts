/**
 * The PDF standard security handler, only as far as the guard needs it: turn the password (empty
 * by default, which is how most "protected" statements open) into the file key and decrypt one
 * stream at a time, so encrypted streams get the same size checks as plain ones. Revisions 2–4
 * (RC4, AES-128) and 5–6 (AES-256) are supported; anything else leaves the file "locked" and
 * pdf.js decides (it asks for a password: 422 encrypted_source).
 */
import { createCipheriv, createDecipheriv, createHash } from "node:crypto";
import { type PdfValue, readObject } from "./pdf-object.ts";

export type StreamDecryptor = (num: number, gen: number, data: Uint8Array) => Uint8Array;

export type CryptState =
  | { kind: "none" }
  | { kind: "open"; decrypt: StreamDecryptor }
  /** Encrypted, and the password does not open it (or the handler is not the standard one). */
  | { kind: "locked"; reason: string };

const PAD = Uint8Array.from([
  0x28, 0xbf, 0x4e, 0x5e, 0x4e, 0x75, 0x8a, 0x41, 0x64, 0x00, 0x4e, 0x56, 0xff, 0xfa, 0x01, 0x08, 0x2e, 0x2e, 0x00, 0xb6, 0xd0, 0x68, 0x3e, 0x80,
  0x2f, 0x0c, 0xa9, 0xfe, 0x64, 0x53, 0x69, 0x7a,
]);

const md5 = (...parts: Uint8Array[]): Uint8Array => {
  const h = createHash("md5");
  for (const p of parts) h.update(p);
  return new Uint8Array(h.digest());
};

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

function aesCbcDecrypt(key: Uint8Array, data: Uint8Array): Uint8Array {
  if (data.length < 32 || data.length % 16 !== 0) return new Uint8Array(0);
  try {
    const d = createDecipheriv(key.length === 32 ? "aes-256-cbc" : "aes-128-cbc", key, data.subarray(0, 16));
    return new Uint8Array(Buffer.concat([d.update(data.subarray(16)), d.final()]));
  } catch {
    return new Uint8Array(0); // bad padding: pdf.js gets nothing usable either
  }
}

const latin1 = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0) & 0xff);
const padPassword = (pw: Uint8Array) => {
  const out = new Uint8Array(32);
  out.set(pw.subarray(0, 32));
  out.set(PAD.subarray(0, Math.max(0, 32 - pw.length)), Math.min(32, pw.length));
  return out;
};

/** Finds the trailer's /Encrypt and /ID, wherever the last cross-reference section put them. */
export function pdfCrypt(bytes: Uint8Array, password = ""): CryptState {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const encrypt = lastValueAfter(buf, "/Encrypt", (v) => v.t === "ref" || v.t === "dict");
  if (!encrypt) return { kind: "none" };
  const dict = encrypt.t === "dict" ? encrypt : encrypt.t === "ref" ? findObject(buf, encrypt) : undefined;
  if (dict?.t !== "dict") return { kind: "locked", reason: "the encryption dictionary could not be read" };
  const id = lastValueAfter(buf, "/ID", (v) => v.t === "array" && v.v[0]?.t === "str");
  const id0 = id?.t === "array" && id.v[0]?.t === "str" ? id.v[0].v : new Uint8Array(0);
  return openStandard(dict.v, id0, latin1(password));
}

function openStandard(d: Map<string, PdfValue>, id0: Uint8Array, pw: Uint8Array): CryptState {
  const name = (k: string) => (d.get(k)?.t === "name" ? (d.get(k) as { v: string }).v : undefined);
  const num = (k: string) => (d.get(k)?.t === "num" ? (d.get(k) as { v: number }).v : undefined);
  const str = (k: string) => (d.get(k)?.t === "str" ? (d.get(k) as { v: Uint8Array }).v : undefined);
  if (name("Filter") !== "Standard") return { kind: "locked", reason: `security handler ${name("Filter")}` };
  const v = num("V") ?? 0;
  const r = num("R") ?? 0;
  const o = str("O");
  const u = str("U");
  const p = num("P");
  if (!o || !u || p === undefined) return { kind: "locked", reason: "incomplete encryption dictionary" };
  const method = streamMethod(d, v);
  if (method === "identity") return { kind: "open", decrypt: (_n, _g, data) => data };
  if (r >= 5) {
    const key = fileKeyV5(r, pw, o, u, str("UE"), str("OE"));
    if (!key) return { kind: "locked", reason: "wrong password" };
    return { kind: "open", decrypt: (_n, _g, data) => aesCbcDecrypt(key, data) };
  }
  const length = r === 2 ? 5 : Math.min(16, Math.max(5, Math.floor((num("Length") ?? 40) / 8)));
  const encryptMetadata = d.get("EncryptMetadata")?.t === "bool" ? (d.get("EncryptMetadata") as { v: boolean }).v : true;
  // The password may be the user's, or the owner's (which pdf.js also accepts): Algorithm 7
  // recovers the user's padded password from /O with the owner's.
  const asUser = fileKeyR2to4(padPassword(pw), o, p, id0, r, length, encryptMetadata);
  const key = checkUserKey(asUser, u, id0, r) ? asUser : fileKeyR2to4(userFromOwner(padPassword(pw), o, r, length), o, p, id0, r, length, encryptMetadata);
  if (key !== asUser && !checkUserKey(key, u, id0, r)) return { kind: "locked", reason: "wrong password" };
  return {
    kind: "open",
    decrypt: (n, g, data) => {
      const objKey = md5(key, Uint8Array.of(n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, g & 0xff, (g >> 8) & 0xff), method === "aes" ? latin1("sAlT") : new Uint8Array(0)).subarray(
        0,
        Math.min(16, key.length + 5),
      );
      return method === "aes" ? aesCbcDecrypt(objKey, data) : rc4(objKey, data);
    },
  };
}

/** Which cipher streams use: V4/V5 name it in the stream crypt filter, older versions use RC4. */
function streamMethod(d: Map<string, PdfValue>, v: number): "rc4" | "aes" | "identity" {
  if (v < 4) return "rc4";
  const stmF = d.get("StmF");
  const filterName = stmF?.t === "name" ? stmF.v : "Identity";
  if (filterName === "Identity") return "identity";
  const cf = d.get("CF");
  const entry = cf?.t === "dict" ? cf.v.get(filterName) : undefined;
  const cfm = entry?.t === "dict" ? entry.v.get("CFM") : undefined;
  const m = cfm?.t === "name" ? cfm.v : "None";
  return m === "AESV2" || m === "AESV3" ? "aes" : m === "V2" ? "rc4" : "identity";
}

/** Algorithm 2 of ISO 32000-1 (7.6.3.3). */
function fileKeyR2to4(pw: Uint8Array, o: Uint8Array, p: number, id0: Uint8Array, r: number, length: number, encryptMetadata: boolean): Uint8Array {
  const pBytes = Uint8Array.of(p & 0xff, (p >> 8) & 0xff, (p >> 16) & 0xff, (p >>> 24) & 0xff);
  let hash = md5(pw, o.subarray(0, 32), pBytes, id0, r >= 4 && !encryptMetadata ? Uint8Array.of(0xff, 0xff, 0xff, 0xff) : new Uint8Array(0));
  if (r >= 3) for (let i = 0; i < 50; i++) hash = md5(hash.subarray(0, length));
  return hash.subarray(0, length);
}

/** Algorithm 7 (first half): the padded user password, decrypted from /O with the owner password. */
function userFromOwner(ownerPadded: Uint8Array, o: Uint8Array, r: number, length: number): Uint8Array {
  let hash = md5(ownerPadded);
  if (r >= 3) for (let i = 0; i < 50; i++) hash = md5(hash.subarray(0, length));
  const key = hash.subarray(0, length);
  if (r === 2) return rc4(key, o.subarray(0, 32));
  let x = o.subarray(0, 32);
  for (let i = 19; i >= 0; i--) x = rc4(key.map((b) => b ^ i), x);
  return x;
}

/** Algorithm 6: the key opens the file when it reproduces /U. */
function checkUserKey(key: Uint8Array, u: Uint8Array, id0: Uint8Array, r: number): boolean {
  if (r === 2) return Buffer.from(rc4(key, PAD)).equals(Buffer.from(u.subarray(0, 32)));
  let x = rc4(key, md5(PAD, id0));
  for (let i = 1; i <= 19; i++) x = rc4(key.map((b) => b ^ i), x);
  return Buffer.from(x.subarray(0, 16)).equals(Buffer.from(u.subarray(0, 16)));
}

/** Revision 5/6 (AES-256): the user password's hash checked against /U, then /UE unwrapped. */
function fileKeyV5(r: number, pw: Uint8Array, o: Uint8Array, u: Uint8Array, ue: Uint8Array | undefined, oe: Uint8Array | undefined): Uint8Array | undefined {
  const password = pw.subarray(0, 127);
  const hash = (salt: Uint8Array, udata: Uint8Array) => (r === 5 ? sha256(password, salt, udata) : hash2B(password, salt, udata));
  let wrapped: Uint8Array | undefined;
  let kek: Uint8Array | undefined;
  if (u.length >= 48 && Buffer.from(hash(u.subarray(32, 40), new Uint8Array(0))).equals(Buffer.from(u.subarray(0, 32)))) {
    kek = hash(u.subarray(40, 48), new Uint8Array(0));
    wrapped = ue;
  } else if (o.length >= 48 && u.length >= 48 && Buffer.from(hash(o.subarray(32, 40), u.subarray(0, 48))).equals(Buffer.from(o.subarray(0, 32)))) {
    kek = hash(o.subarray(40, 48), u.subarray(0, 48));
    wrapped = oe;
  }
  if (!kek || !wrapped || wrapped.length < 32) return undefined;
  const d = createDecipheriv("aes-256-cbc", kek, new Uint8Array(16));
  d.setAutoPadding(false);
  return new Uint8Array(Buffer.concat([d.update(wrapped.subarray(0, 32)), d.final()]));
}

const sha256 = (...parts: Uint8Array[]) => {
  const h = createHash("sha256");
  for (const p of parts) h.update(p);
  return new Uint8Array(h.digest());
};

/** Algorithm 2.B of ISO 32000-2 (7.6.4.3.4). */
export function hash2B(password: Uint8Array, salt: Uint8Array, udata: Uint8Array): Uint8Array {
  let k = sha256(password, salt, udata);
  for (let round = 0; ; round++) {
    const k1 = new Uint8Array((password.length + k.length + udata.length) * 64);
    const unit = new Uint8Array(password.length + k.length + udata.length);
    unit.set(password, 0);
    unit.set(k, password.length);
    unit.set(udata, password.length + k.length);
    for (let i = 0; i < 64; i++) k1.set(unit, i * unit.length);
    const c = createCipheriv("aes-128-cbc", k.subarray(0, 16), k.subarray(16, 32));
    c.setAutoPadding(false);
    const e = new Uint8Array(Buffer.concat([c.update(k1), c.final()]));
    let sum = 0;
    for (let i = 0; i < 16; i++) sum += e[i]!;
    const algo = ["sha256", "sha384", "sha512"][sum % 3]!;
    k = new Uint8Array(createHash(algo).update(e).digest());
    if (round >= 63 && e[e.length - 1]! <= round - 31) return k.subarray(0, 32);
  }
}

/** The last occurrence of `key` followed by a value that `accept` takes (later updates win). */
function lastValueAfter(buf: Buffer, key: string, accept: (v: PdfValue) => boolean): PdfValue | undefined {
  for (let at = buf.lastIndexOf(key); at >= 0; at = at > 0 ? buf.lastIndexOf(key, at - 1) : -1) {
    const next = buf[at + key.length];
    // "/ID" must not match "/IDTree": the key ends at a delimiter or whitespace.
    if (next !== undefined && /[A-Za-z0-9]/.test(String.fromCharCode(next))) continue;
    const v = readObject(buf, at + key.length);
    if (v && accept(v)) return v;
  }
  return undefined;
}

function findObject(buf: Buffer, ref: PdfValue & { t: "ref" }): PdfValue | undefined {
  const marker = `${ref.num} ${ref.gen} obj`;
  for (let at = buf.lastIndexOf(marker); at >= 0; at = at > 0 ? buf.lastIndexOf(marker, at - 1) : -1) {
    const before = at > 0 ? buf[at - 1]! : 0x0a;
    if (before >= 0x30 && before <= 0x39) continue; // "11 0 obj" is not "1 0 obj"
    return readObject(buf, at + marker.length);
  }
  return undefined;
}
