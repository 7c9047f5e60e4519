/**
 * The guard's side of the PDF standard security handler: read /Encrypt and /ID with the guard's own
 * object reader, then let ../pdf/security.ts turn the password (empty by default, which is how most
 * "protected" statements open) into the file key and decrypt one stream at a time, so encrypted
 * streams get the same size checks as plain ones. Revisions 2–4
 * (RC4, AES-128) and 5–6 (AES-256) are supported; anything else leaves the file "locked" and
 * pdf.js decides (it asks for a password: 422 encrypted_source). The empty password is tried as
 * the owner's too, as desktop readers do; emptyOwnerPasswordAccess hands pdf.js what it then needs.
 */
import { formatValue, readTrailer, serialise } from "../pdf/page-tree.ts";
import { cryptMethod, decryptObjectData, emptyPasswordOpens, emptyUserEntries, fileKey, passwordBytes, type StandardSecurity, userPasswordFromOwner } from "../pdf/security.ts";
import { type PdfValue, readObject } from "./pdf-object.ts";

export type StreamDecryptor = (num: number, gen: number, data: Uint8Array) => Uint8Array;

export type CryptState =
  | { kind: "none" }
  | { kind: "open"; decrypt: StreamDecryptor }
  /** Encrypted, and the password does not open it (or the handler is not the standard one). */
  | { kind: "locked"; reason: string };

/** Finds the trailer's /Encrypt and /ID, wherever the last cross-reference section put them. */
export function pdfCrypt(bytes: Uint8Array, password = ""): CryptState {
  const found = readSecurity(bytes);
  if (found.kind !== "standard") return found;
  const { sec } = found;
  // Only streams are checked, so an Identity stream filter needs no password at all.
  if (sec.stmF === "identity") return { kind: "open", decrypt: (_n, _g, data) => data };
  const key = fileKey(sec, passwordBytes(password, sec.r));
  if (!key) return { kind: "locked", reason: "wrong password" };
  return { kind: "open", decrypt: (n, g, data) => decryptObjectData(sec, key, n, g, sec.stmF, data) };
}

/**
 * What pdf.js needs to open a file that the empty password opens only as the OWNER password (a
 * set user password, an empty owner one: every desktop reader opens it without asking, but pdf.js
 * tries the empty password as the user's only). Revisions 2–4: the user password, recovered from
 * /O. Revisions 5–6, whose user password cannot be recovered: an incremental update to append to
 * pdf.js's copy, redefining /Encrypt with /U and /UE that the empty user password opens (same file
 * key, so every object still decrypts). Undefined when the empty password is not the owner's.
 */
export function emptyOwnerPasswordAccess(bytes: Uint8Array): { password: string } | { update: Uint8Array } | undefined {
  const found = readSecurity(bytes);
  if (found.kind !== "standard") return undefined;
  const opens = emptyPasswordOpens(found.sec);
  if (opens?.as !== "owner") return undefined;
  if (found.sec.r < 5) {
    const user = userPasswordFromOwner(found.sec, new Uint8Array(0));
    // pdf.js turns a password string into bytes one char code each before revision 5.
    return user && user.length > 0 ? { password: Buffer.from(user).toString("latin1") } : undefined;
  }
  const trailer = readTrailer(bytes);
  if (!trailer) return undefined;
  const { u, ue } = emptyUserEntries(found.sec, opens.key);
  const dict: PdfValue = { t: "dict", v: new Map([...found.dict, ["U", { t: "str", v: u }], ["UE", { t: "str", v: ue }]]) };
  const ref = found.ref;
  if (ref) return { update: serialise(bytes.length, [{ num: ref.num, gen: ref.gen, body: formatValue(dict) }], trailer, trailer.size) };
  // A direct /Encrypt dictionary in the trailer is replaced in the new trailer.
  const keep = trailer.keep.map(([k, v]): [string, PdfValue] => [k, k === "Encrypt" ? dict : v]);
  return { update: serialise(bytes.length, [], { ...trailer, keep }, trailer.size) };
}

/** True when the empty password opens the file only as its owner password (see emptyOwnerPasswordAccess). */
export function emptyPasswordIsOwner(bytes: Uint8Array): boolean {
  const found = readSecurity(bytes);
  return found.kind === "standard" && emptyPasswordOpens(found.sec)?.as === "owner";
}

/** End-of-file markers sit in the last bytes of a whole file (1024 is the window readers search). */
const EOF_WINDOW = 1024;

/**
 * For a file pdf.js could not read: a sentence naming what is wrong with it as far as the bytes
 * show, encrypted or not and truncated (no end-of-file marker) or otherwise damaged.
 */
export function damageNote(bytes: Uint8Array): string {
  const encrypted = readSecurity(bytes).kind !== "none";
  const tail = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).subarray(Math.max(0, bytes.byteLength - EOF_WINDOW));
  const what = encrypted ? "The PDF is encrypted and " : "The PDF is ";
  return tail.includes("%%EOF") ? `${what}damaged` : `${what}truncated (its end-of-file marker is missing)`;
}

type SecurityFound =
  | { kind: "none" }
  | { kind: "locked"; reason: string }
  | { kind: "standard"; sec: StandardSecurity; dict: Map<string, PdfValue>; ref: { num: number; gen: number } | undefined };

function readSecurity(bytes: Uint8Array): SecurityFound {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const encrypt = lastValueAfter(buf, "/Encrypt", (v) => v.t === "ref" || v.t === "dict");
  if (!encrypt) return { kind: "none" };
  const dict = encrypt.t === "dict" ? encrypt : encrypt.t === "ref" ? findObject(buf, encrypt) : undefined;
  if (dict?.t !== "dict") return { kind: "locked", reason: "the encryption dictionary could not be read" };
  const id = lastValueAfter(buf, "/ID", (v) => v.t === "array" && v.v[0]?.t === "str");
  const id0 = id?.t === "array" && id.v[0]?.t === "str" ? id.v[0].v : new Uint8Array(0);
  const sec = standardSecurity(dict.v, id0);
  if (typeof sec === "string") return { kind: "locked", reason: sec };
  return { kind: "standard", sec, dict: dict.v, ref: encrypt.t === "ref" ? { num: encrypt.num, gen: encrypt.gen } : undefined };
}

/** The standard handler's entries, or why they cannot be used. */
function standardSecurity(d: Map<string, PdfValue>, id0: Uint8Array): StandardSecurity | string {
  const name = (k: string, from = d) => (from.get(k)?.t === "name" ? (from.get(k) as { v: string }).v : undefined);
  const num = (k: string) => (d.get(k)?.t === "num" ? (d.get(k) as { v: number }).v : undefined);
  const str = (k: string) => (d.get(k)?.t === "str" ? (d.get(k) as { v: Uint8Array }).v : undefined);
  if (name("Filter") !== "Standard") return `security handler ${name("Filter")}`;
  const o = str("O");
  const u = str("U");
  const p = num("P");
  if (!o || !u || p === undefined) return "incomplete encryption dictionary";
  const v = num("V") ?? 0;
  const methodOf = (key: "StmF" | "StrF") => {
    const filter = name(key);
    const cf = d.get("CF");
    const entry = cf?.t === "dict" && filter !== undefined ? cf.v.get(filter) : undefined;
    return cryptMethod(v, filter, entry?.t === "dict" ? name("CFM", entry.v) : undefined);
  };
  const encryptMetadata = d.get("EncryptMetadata");
  return {
    v,
    r: num("R") ?? 0,
    length: num("Length") ?? 40,
    o,
    u,
    oe: str("OE"),
    ue: str("UE"),
    p,
    encryptMetadata: encryptMetadata?.t === "bool" ? encryptMetadata.v : true,
    stmF: methodOf("StmF"),
    strF: methodOf("StrF"),
    id0,
  };
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
