import { createCipheriv, createDecipheriv, createHash } from "node:crypto";
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFContext,
  PDFName,
  PDFNumber,
  PDFObjectParser,
  PDFObjectStreamParser,
  PDFParser,
  PDFRawStream,
  PDFRef,
  PDFString,
  PDFXRefStreamParser,
  type PDFObject,
} from "pdf-lib";
import { encryptedSource, unsupportedFormat } from "../../errors.ts";

/**
 * Opens an encrypted PDF (standard security handler, revisions 2 to 6: RC4, AES-128, AES-256) for
 * rewriting: pdf-lib cannot decrypt, so its parser is given a hook that decrypts every string and
 * stream as the object is read (before object streams are unpacked). The result has no /Encrypt:
 * the redacted copy is written unencrypted.
 */

// Standard padding string (ISO 32000-1, 7.6.3.3, algorithm 2).
const PAD = Buffer.from("28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a", "hex");

const md5 = (...parts: Uint8Array[]) => {
  const h = createHash("md5");
  for (const p of parts) h.update(p);
  return h.digest();
};

function rc4(key: Uint8Array, data: Uint8Array): Uint8Array {
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
  if (data.length < 32 || data.length % 16 !== 0) return data.length < 16 ? new Uint8Array(0) : aesTolerant(key, data);
  const d = createDecipheriv(key.length === 32 ? "aes-256-cbc" : "aes-128-cbc", key, data.subarray(0, 16));
  try {
    return new Uint8Array(Buffer.concat([d.update(data.subarray(16)), d.final()]));
  } catch {
    return aesTolerant(key, data);
  }
}

/** Bad padding or a ragged length: decrypt without the padding check, as viewers do. */
function aesTolerant(key: Uint8Array, data: Uint8Array): Uint8Array {
  const body = data.subarray(16, 16 + Math.floor((data.length - 16) / 16) * 16);
  const d = createDecipheriv(key.length === 32 ? "aes-256-cbc" : "aes-128-cbc", key, data.subarray(0, 16));
  d.setAutoPadding(false);
  return new Uint8Array(Buffer.concat([d.update(body), d.final()]));
}

const utf8 = (s: string) => new Uint8Array(Buffer.from(s, "utf8"));
const latin = (s: string) => new Uint8Array(Buffer.from(s, "latin1"));

/** Algorithm 2.B (ISO 32000-2): the hash of revision 6. */
function hash2B(password: Uint8Array, salt: Uint8Array, userKey: Uint8Array): Uint8Array {
  let k: Uint8Array = createHash("sha256").update(password).update(salt).update(userKey).digest();
  for (let round = 0; ; round++) {
    const k1 = Buffer.concat(Array.from({ length: 64 }, () => Buffer.concat([password, k, userKey])));
    const c = createCipheriv("aes-128-cbc", k.subarray(0, 16), k.subarray(16, 32));
    c.setAutoPadding(false);
    const e = Buffer.concat([c.update(k1), c.final()]);
    let sum = 0;
    for (let i = 0; i < 16; i++) sum += e[i]!;
    k = createHash(["sha256", "sha384", "sha512"][sum % 3]!).update(e).digest();
    // At least 64 rounds; then stop once the last byte of E is at most (rounds done) - 32.
    if (round >= 63 && e[e.length - 1]! <= round + 1 - 32) break;
  }
  return k.subarray(0, 32);
}

type Method = "none" | "rc4" | "aes";

interface Security {
  fileKey: Uint8Array;
  revision: number;
  stringMethod: Method;
  streamMethod: Method;
  encryptMetadata: boolean;
  encryptRef?: PDFRef;
}

const bytesOf = (o: PDFObject | undefined): Uint8Array =>
  o instanceof PDFString || o instanceof PDFHexString ? o.asBytes() : new Uint8Array(0);
const num = (o: PDFObject | undefined, d: number) => (o instanceof PDFNumber ? o.asNumber() : d);

function methodOf(encrypt: PDFDict, key: "StmF" | "StrF", v: number): Method {
  if (v < 4) return "rc4";
  const name = encrypt.lookup(PDFName.of(key));
  const filter = name instanceof PDFName ? name.decodeText() : "Identity";
  if (filter === "Identity") return "none";
  const cf = encrypt.lookup(PDFName.of("CF"));
  const entry = cf instanceof PDFDict ? cf.lookup(PDFName.of(filter)) : undefined;
  const cfm = entry instanceof PDFDict ? entry.lookup(PDFName.of("CFM")) : undefined;
  const m = cfm instanceof PDFName ? cfm.decodeText() : "None";
  return m === "V2" ? "rc4" : m === "AESV2" || m === "AESV3" ? "aes" : "none";
}

/** Revisions 2-4: the file key for a password tried as the user password (algorithms 2, 6). */
function legacyKey(password: Uint8Array, encrypt: PDFDict, id0: Uint8Array, r: number, length: number, encryptMetadata: boolean): Uint8Array | undefined {
  const padded = Buffer.concat([password.subarray(0, 32), PAD]).subarray(0, 32);
  const p = Buffer.alloc(4);
  p.writeInt32LE(num(encrypt.lookup(PDFName.of("P")), 0));
  const n = r === 2 ? 5 : length / 8;
  let key: Uint8Array = md5(padded, bytesOf(encrypt.lookup(PDFName.of("O"))), p, id0, r >= 4 && !encryptMetadata ? Buffer.from([255, 255, 255, 255]) : new Uint8Array(0));
  if (r >= 3) for (let i = 0; i < 50; i++) key = md5(key.subarray(0, n));
  key = key.subarray(0, n);
  const u = bytesOf(encrypt.lookup(PDFName.of("U")));
  if (r === 2) return Buffer.from(rc4(key, PAD)).equals(Buffer.from(u.subarray(0, 32))) ? key : undefined;
  let check = rc4(key, md5(PAD, id0));
  for (let i = 1; i <= 19; i++) check = rc4(key.map((b) => b ^ i), check);
  return Buffer.from(check).equals(Buffer.from(u.subarray(0, 16))) ? key : undefined;
}

/** Revisions 2-4, owner password: recover the user password from /O (algorithm 7). */
function legacyOwner(password: Uint8Array, encrypt: PDFDict, r: number, length: number): Uint8Array {
  const padded = Buffer.concat([password.subarray(0, 32), PAD]).subarray(0, 32);
  let key: Uint8Array = md5(padded);
  const n = r === 2 ? 5 : length / 8;
  if (r >= 3) for (let i = 0; i < 50; i++) key = md5(key.subarray(0, n));
  key = key.subarray(0, n);
  let user = bytesOf(encrypt.lookup(PDFName.of("O")));
  if (r === 2) return rc4(key, user);
  for (let i = 19; i >= 0; i--) user = rc4(key.map((b) => b ^ i), user);
  return user;
}

/** Revisions 5-6: the file key from the user or owner password (algorithms 2.A, 2.B). */
function aes256Key(password: Uint8Array, encrypt: PDFDict, r: number): Uint8Array | undefined {
  const pw = password.subarray(0, 127);
  const u = bytesOf(encrypt.lookup(PDFName.of("U"))).subarray(0, 48);
  const o = bytesOf(encrypt.lookup(PDFName.of("O"))).subarray(0, 48);
  const hash = (salt: Uint8Array, extra: Uint8Array) => (r === 5 ? createHash("sha256").update(pw).update(salt).update(extra).digest() : hash2B(pw, salt, extra));
  const unwrap = (k: Uint8Array, wrapped: Uint8Array) => {
    const d = createDecipheriv("aes-256-cbc", k, Buffer.alloc(16));
    d.setAutoPadding(false);
    return new Uint8Array(Buffer.concat([d.update(wrapped), d.final()]));
  };
  if (Buffer.from(hash(o.subarray(32, 40), u)).equals(Buffer.from(o.subarray(0, 32)))) {
    return unwrap(hash(o.subarray(40, 48), u), bytesOf(encrypt.lookup(PDFName.of("OE"))).subarray(0, 32));
  }
  if (Buffer.from(hash(u.subarray(32, 40), new Uint8Array(0))).equals(Buffer.from(u.subarray(0, 32)))) {
    return unwrap(hash(u.subarray(40, 48), new Uint8Array(0)), bytesOf(encrypt.lookup(PDFName.of("UE"))).subarray(0, 32));
  }
  return undefined;
}

/** Whether the file declares an encryption dictionary (a trailer or xref-stream /Encrypt entry). */
export function isEncrypted(bytes: Uint8Array): boolean {
  return /\/Encrypt\s*(?:\d+\s+\d+\s+R|<<)/.test(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1"));
}

/**
 * The /Encrypt dictionary and the first /ID string, read straight from the bytes: the encryption
 * dictionary is never inside an object stream, and the trailer (or the cross-reference stream
 * dictionary) is never encrypted. The last occurrence wins, as in an incremental update.
 */
function readEncryption(bytes: Uint8Array): { encrypt: PDFDict; encryptRef?: PDFRef; id0: Uint8Array } {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
  const context = PDFContext.create();
  const parseAt = (pos: number) => PDFObjectParser.forBytes(bytes.subarray(pos), context).parseObject();
  const last = (re: RegExp) => [...text.matchAll(re)].at(-1);
  let encrypt: PDFObject | undefined;
  let encryptRef: PDFRef | undefined;
  const byRef = last(/\/Encrypt\s*(\d+)\s+(\d+)\s+R/g);
  const direct = last(/\/Encrypt\s*(?=<<)/g);
  if (byRef && (!direct || byRef.index > direct.index)) {
    encryptRef = PDFRef.of(Number(byRef[1]), Number(byRef[2]));
    const header = last(new RegExp(`(?<![0-9])${byRef[1]}\\s+${byRef[2]}\\s+obj\\b`, "g"));
    if (header) encrypt = parseAt(header.index + header[0].length);
  } else if (direct) encrypt = parseAt(direct.index + direct[0].length);
  if (!(encrypt instanceof PDFDict)) throw unsupportedFormat("The PDF's encryption dictionary could not be read");
  const idAt = last(/\/ID\s*(?=\[)/g);
  const ids = idAt ? parseAt(idAt.index + idAt[0].length) : undefined;
  const id0 = ids instanceof PDFArray ? bytesOf(ids.get(0)) : new Uint8Array(0);
  return { encrypt, encryptRef, id0 };
}

function securityOf(bytes: Uint8Array, password: string): Security {
  const { encrypt, encryptRef, id0 } = readEncryption(bytes);
  const filter = encrypt.lookup(PDFName.of("Filter"));
  if (!(filter instanceof PDFName) || filter.decodeText() !== "Standard") throw encryptedSource("The PDF uses a security handler other than the standard one");
  const v = num(encrypt.lookup(PDFName.of("V")), 0);
  const r = num(encrypt.lookup(PDFName.of("R")), 0);
  const length = num(encrypt.lookup(PDFName.of("Length")), 40);
  const em = encrypt.lookup(PDFName.of("EncryptMetadata"));
  const encryptMetadata = !(em !== undefined && em.toString() === "false");
  let fileKey: Uint8Array | undefined;
  if (r >= 5) {
    fileKey = aes256Key(utf8(password), encrypt, r);
  } else if (r >= 2) {
    const pw = latin(password);
    fileKey = legacyKey(pw, encrypt, id0, r, length, encryptMetadata) ?? legacyKey(legacyOwner(pw, encrypt, r, length), encrypt, id0, r, length, encryptMetadata);
  } else throw encryptedSource(`Unsupported PDF encryption revision ${r}`);
  if (!fileKey) throw encryptedSource(password ? "The PDF password is wrong" : "The PDF is encrypted and needs a password");
  return { fileKey, revision: r, stringMethod: methodOf(encrypt, "StrF", v), streamMethod: methodOf(encrypt, "StmF", v), encryptMetadata, encryptRef };
}

function decryptBytes(sec: Security, ref: PDFRef, data: Uint8Array, method: Method): Uint8Array {
  if (method === "none") return data;
  if (sec.revision >= 5) return aesCbcDecrypt(sec.fileKey, data);
  const n = ref.objectNumber;
  const g = ref.generationNumber;
  const salt = method === "aes" ? Buffer.from("sAlT", "latin1") : new Uint8Array(0);
  const key = md5(sec.fileKey, Uint8Array.of(n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, g & 0xff, (g >> 8) & 0xff), salt).subarray(0, Math.min(sec.fileKey.length + 5, 16));
  return method === "aes" ? aesCbcDecrypt(key, data) : rc4(key, data);
}

const toHex = (b: Uint8Array) => PDFHexString.of(Buffer.from(b).toString("hex"));

function decryptObject(sec: Security, ref: PDFRef, o: PDFObject): PDFObject {
  if (o instanceof PDFString || o instanceof PDFHexString) return toHex(decryptBytes(sec, ref, o.asBytes(), sec.stringMethod));
  if (o instanceof PDFArray) {
    o.asArray().forEach((v, i) => o.set(i, decryptObject(sec, ref, v)));
    return o;
  }
  if (o instanceof PDFDict) {
    for (const [k, v] of o.entries()) o.set(k, decryptObject(sec, ref, v));
    return o;
  }
  if (o instanceof PDFRawStream) {
    const type = o.dict.lookup(PDFName.of("Type"));
    const typeName = type instanceof PDFName ? type.decodeText() : "";
    if (typeName === "XRef") return o;
    decryptObject(sec, ref, o.dict);
    if (typeName === "Metadata" && !sec.encryptMetadata) return o;
    return PDFRawStream.of(o.dict, decryptBytes(sec, ref, o.contents, sec.streamMethod));
  }
  return o;
}

const ENDOBJ = [...Buffer.from("endobj", "latin1")];

/** The parser's own steps, reached through its private members (pdf-lib exposes no hook). */
interface ParserInternals {
  context: PDFContext;
  parseIndirectObjectHeader(): PDFRef;
  skipWhitespaceAndComments(): void;
  parseObject(): PDFObject;
  matchKeyword(keyword: number[]): boolean;
  parseIndirectObject(): Promise<PDFRef>;
  parseDocument(): Promise<PDFContext>;
}

/** Loads an encrypted PDF with every string and stream decrypted; throws encrypted_source on a wrong password. */
export async function loadDecrypted(bytes: Uint8Array, password: string): Promise<PDFDocument> {
  const sec = securityOf(bytes, password);

  const parser = PDFParser.forBytesWithOptions(bytes, Number.POSITIVE_INFINITY, false, false) as unknown as ParserInternals;
  parser.parseIndirectObject = async function (this: ParserInternals) {
    const ref = this.parseIndirectObjectHeader();
    this.skipWhitespaceAndComments();
    let object = this.parseObject();
    this.skipWhitespaceAndComments();
    this.matchKeyword(ENDOBJ);
    if (!(sec.encryptRef && ref === sec.encryptRef)) object = decryptObject(sec, ref, object);
    const type = object instanceof PDFRawStream ? object.dict.lookup(PDFName.of("Type")) : undefined;
    if (object instanceof PDFRawStream && type === PDFName.of("ObjStm")) await PDFObjectStreamParser.forStream(object).parseIntoContext();
    else if (object instanceof PDFRawStream && type === PDFName.of("XRef")) PDFXRefStreamParser.forStream(object).parseIntoContext();
    else this.context.assign(ref, object);
    return ref;
  };
  const context = await parser.parseDocument();
  if (sec.encryptRef) context.delete(sec.encryptRef);
  context.trailerInfo.Encrypt = undefined;
  // PDFDocument's constructor is not public; it is what PDFDocument.load calls after parsing.
  const Ctor = PDFDocument as unknown as new (context: PDFContext, ignoreEncryption: boolean, updateMetadata: boolean) => PDFDocument;
  return new Ctor(context, false, false);
}
