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
import { type CryptMethod, cryptMethod, decryptObjectData, fileKey, passwordBytes, type StandardSecurity } from "../pdf/security.ts";

/**
 * Opens an encrypted PDF (standard security handler, revisions 2 to 6: RC4, AES-128, AES-256) for
 * rewriting: pdf-lib cannot decrypt, so its parser is given a hook that decrypts every string and
 * stream as the object is read (before object streams are unpacked). The result has no /Encrypt:
 * the redacted copy is written unencrypted.
 */

interface Security {
  standard: StandardSecurity;
  fileKey: Uint8Array;
  encryptRef?: PDFRef;
}

const bytesOf = (o: PDFObject | undefined): Uint8Array =>
  o instanceof PDFString || o instanceof PDFHexString ? o.asBytes() : new Uint8Array(0);
const num = (o: PDFObject | undefined, d: number) => (o instanceof PDFNumber ? o.asNumber() : d);

function methodOf(encrypt: PDFDict, key: "StmF" | "StrF", v: number): CryptMethod {
  const name = encrypt.lookup(PDFName.of(key));
  const filter = name instanceof PDFName ? name.decodeText() : undefined;
  const cf = encrypt.lookup(PDFName.of("CF"));
  const entry = cf instanceof PDFDict && filter !== undefined ? cf.lookup(PDFName.of(filter)) : undefined;
  const cfm = entry instanceof PDFDict ? entry.lookup(PDFName.of("CFM")) : undefined;
  return cryptMethod(v, filter, cfm instanceof PDFName ? cfm.decodeText() : undefined);
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
  const get = (key: string) => encrypt.lookup(PDFName.of(key));
  const filter = get("Filter");
  if (!(filter instanceof PDFName) || filter.decodeText() !== "Standard") throw encryptedSource("The PDF uses a security handler other than the standard one");
  const v = num(get("V"), 0);
  const r = num(get("R"), 0);
  if (r < 2) throw encryptedSource(`Unsupported PDF encryption revision ${r}`);
  const em = get("EncryptMetadata");
  const standard: StandardSecurity = {
    v,
    r,
    length: num(get("Length"), 40),
    o: bytesOf(get("O")),
    u: bytesOf(get("U")),
    oe: bytesOf(get("OE")),
    ue: bytesOf(get("UE")),
    p: num(get("P"), 0),
    encryptMetadata: !(em !== undefined && em.toString() === "false"),
    stmF: methodOf(encrypt, "StmF", v),
    strF: methodOf(encrypt, "StrF", v),
    id0,
  };
  // Revisions 5–6 take the password as UTF-8 (ISO 32000-2), older ones one byte per character.
  const key = fileKey(standard, passwordBytes(password, r));
  if (!key) throw encryptedSource(password ? "The PDF password is wrong" : "The PDF is encrypted and needs a password");
  return { standard, fileKey: key, encryptRef };
}

/** Strings and streams keep their content even when AES padding is off, as viewers show it. */
function decryptBytes(sec: Security, ref: PDFRef, data: Uint8Array, method: CryptMethod): Uint8Array {
  return decryptObjectData(sec.standard, sec.fileKey, ref.objectNumber, ref.generationNumber, method, data, { tolerant: true });
}

const toHex = (b: Uint8Array) => PDFHexString.of(Buffer.from(b).toString("hex"));

function decryptObject(sec: Security, ref: PDFRef, o: PDFObject): PDFObject {
  if (o instanceof PDFString || o instanceof PDFHexString) return toHex(decryptBytes(sec, ref, o.asBytes(), sec.standard.strF));
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
    if (typeName === "Metadata" && !sec.standard.encryptMetadata) return o;
    return PDFRawStream.of(o.dict, decryptBytes(sec, ref, o.contents, sec.standard.stmF));
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
