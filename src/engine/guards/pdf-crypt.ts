/**
 * The guard's side of the PDF standard security handler: read /Encrypt and /ID with the guard's own
 * object reader, then let ../pdf/security.ts turn the password (empty by default, which is how most
 * "protected" statements open) into the file key and decrypt one stream at a time, so encrypted
 * streams get the same size checks as plain ones. Revisions 2–4
 * (RC4, AES-128) and 5–6 (AES-256) are supported; anything else leaves the file "locked" and
 * pdf.js decides (it asks for a password: 422 encrypted_source).
 */
import { cryptMethod, decryptObjectData, fileKey, passwordBytes, type StandardSecurity } from "../pdf/security.ts";
import { type PdfValue, readObject } from "./pdf-object.ts";

export type StreamDecryptor = (num: number, gen: number, data: Uint8Array) => Uint8Array;

export type CryptState =
  | { kind: "none" }
  | { kind: "open"; decrypt: StreamDecryptor }
  /** Encrypted, and the password does not open it (or the handler is not the standard one). */
  | { kind: "locked"; reason: string };

/** Finds the trailer's /Encrypt and /ID, wherever the last cross-reference section put them. */
export function pdfCrypt(bytes: Uint8Array, password = ""): CryptState {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const encrypt = lastValueAfter(buf, "/Encrypt", (v) => v.t === "ref" || v.t === "dict");
  if (!encrypt) return { kind: "none" };
  const dict = encrypt.t === "dict" ? encrypt : encrypt.t === "ref" ? findObject(buf, encrypt) : undefined;
  if (dict?.t !== "dict") return { kind: "locked", reason: "the encryption dictionary could not be read" };
  const id = lastValueAfter(buf, "/ID", (v) => v.t === "array" && v.v[0]?.t === "str");
  const id0 = id?.t === "array" && id.v[0]?.t === "str" ? id.v[0].v : new Uint8Array(0);
  return openStandard(dict.v, id0, password);
}

function openStandard(d: Map<string, PdfValue>, id0: Uint8Array, password: string): CryptState {
  const name = (k: string, from = d) => (from.get(k)?.t === "name" ? (from.get(k) as { v: string }).v : undefined);
  const num = (k: string) => (d.get(k)?.t === "num" ? (d.get(k) as { v: number }).v : undefined);
  const str = (k: string) => (d.get(k)?.t === "str" ? (d.get(k) as { v: Uint8Array }).v : undefined);
  if (name("Filter") !== "Standard") return { kind: "locked", reason: `security handler ${name("Filter")}` };
  const o = str("O");
  const u = str("U");
  const p = num("P");
  if (!o || !u || p === undefined) return { kind: "locked", reason: "incomplete encryption dictionary" };
  const v = num("V") ?? 0;
  const methodOf = (key: "StmF" | "StrF") => {
    const filter = name(key);
    const cf = d.get("CF");
    const entry = cf?.t === "dict" && filter !== undefined ? cf.v.get(filter) : undefined;
    return cryptMethod(v, filter, entry?.t === "dict" ? name("CFM", entry.v) : undefined);
  };
  const encryptMetadata = d.get("EncryptMetadata");
  const sec: StandardSecurity = {
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
  // Only streams are checked, so an Identity stream filter needs no password at all.
  if (sec.stmF === "identity") return { kind: "open", decrypt: (_n, _g, data) => data };
  const key = fileKey(sec, passwordBytes(password, sec.r));
  if (!key) return { kind: "locked", reason: "wrong password" };
  return { kind: "open", decrypt: (n, g, data) => decryptObjectData(sec, key, n, g, sec.stmF, data) };
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
