/**
 * Writes PDFs encrypted with the standard security handler (RC4 128-bit R3, AES-128 R4, AES-256
 * R6), so tests can hide hostile streams behind encryption. Written from ISO 32000 independently
 * of the guard's decryption; pdf.js reading the text back is what shows the files are right.
 */
import { createCipheriv, createHash, randomBytes } from "node:crypto";
import { hash2B, rc4 } from "../../src/engine/pdf/security.ts";
import { buildPdf, streamObject } from "./generate.ts";
import { concat } from "./zip.ts";

export type PlainObject = string | { dict: string; data: Uint8Array };
export type Cipher = "rc4" | "aes128" | "aes256";

const PAD = Buffer.from("28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a", "hex");
const md5 = (...p: Uint8Array[]) => new Uint8Array(p.reduce((h, x) => h.update(x), createHash("md5")).digest());
const pad = (pw: string) => new Uint8Array(Buffer.concat([Buffer.from(pw, "latin1"), PAD]).subarray(0, 32));
const hex = (b: Uint8Array) => `<${Buffer.from(b).toString("hex")}>`;
const P = -4;
const pBytes = Uint8Array.of(P & 0xff, (P >> 8) & 0xff, (P >> 16) & 0xff, (P >>> 24) & 0xff);

function aesCbc(key: Uint8Array, data: Uint8Array): Uint8Array {
  const iv = randomBytes(16);
  const c = createCipheriv(key.length === 32 ? "aes-256-cbc" : "aes-128-cbc", key, iv);
  return new Uint8Array(Buffer.concat([iv, c.update(data), c.final()]));
}

function aesNoPad(key: Uint8Array, data: Uint8Array, mode: "aes-256-cbc" | "aes-256-ecb"): Uint8Array {
  const c = createCipheriv(mode, key, mode === "aes-256-ecb" ? null : new Uint8Array(16));
  c.setAutoPadding(false);
  return new Uint8Array(Buffer.concat([c.update(data), c.final()]));
}

/** Objects numbered from 1 (object 1 the catalog); the encryption dictionary is appended last. */
export function encryptedPdf(objects: PlainObject[], cipher: Cipher, userPassword = "", ownerPassword = "owner-secret"): Uint8Array {
  const id0 = new Uint8Array(randomBytes(16));
  let encryptDict: string;
  let streamKey: (num: number) => Uint8Array;
  if (cipher === "aes256") {
    const fileKey = new Uint8Array(randomBytes(32));
    const user = Buffer.from(userPassword, "utf8");
    const [uvs, uks] = [randomBytes(8), randomBytes(8)];
    const u = concat([hash2B(user, uvs, new Uint8Array(0)), uvs, uks]);
    const ue = aesNoPad(hash2B(user, uks, new Uint8Array(0)), fileKey, "aes-256-cbc");
    const owner = Buffer.from(ownerPassword, "utf8");
    const [ovs, oks] = [randomBytes(8), randomBytes(8)];
    const o = concat([hash2B(owner, ovs, u), ovs, oks]);
    const oe = aesNoPad(hash2B(owner, oks, u), fileKey, "aes-256-cbc");
    const perms = aesNoPad(fileKey, concat([pBytes, Uint8Array.of(0xff, 0xff, 0xff, 0xff), Buffer.from("Tadb"), randomBytes(4)]), "aes-256-ecb");
    encryptDict = `<< /Filter /Standard /V 5 /R 6 /Length 256 /CF << /StdCF << /CFM /AESV3 /AuthEvent /DocOpen /Length 32 >> >> /StmF /StdCF /StrF /StdCF /O ${hex(o)} /U ${hex(u)} /OE ${hex(oe)} /UE ${hex(ue)} /P ${P} /Perms ${hex(perms)} >>`;
    streamKey = () => fileKey;
  } else {
    const r = cipher === "rc4" ? 3 : 4;
    const n = 16;
    // Algorithm 3: /O from the owner password.
    let ok = md5(pad(ownerPassword));
    for (let i = 0; i < 50; i++) ok = md5(ok.subarray(0, n));
    let o = rc4(ok.subarray(0, n), pad(userPassword));
    for (let i = 1; i <= 19; i++) o = rc4(ok.subarray(0, n).map((b) => b ^ i), o);
    // Algorithm 2: the file key; Algorithm 5: /U.
    let key = md5(pad(userPassword), o, pBytes, id0);
    for (let i = 0; i < 50; i++) key = md5(key.subarray(0, n));
    key = key.subarray(0, n);
    let u = rc4(key, md5(PAD, id0));
    for (let i = 1; i <= 19; i++) u = rc4(key.map((b) => b ^ i), u);
    u = concat([u, new Uint8Array(16)]);
    encryptDict =
      cipher === "rc4"
        ? `<< /Filter /Standard /V 2 /R ${r} /Length 128 /O ${hex(o)} /U ${hex(u)} /P ${P} >>`
        : `<< /Filter /Standard /V 4 /R ${r} /Length 128 /CF << /StdCF << /CFM /AESV2 /AuthEvent /DocOpen /Length 16 >> >> /StmF /StdCF /StrF /StdCF /O ${hex(o)} /U ${hex(u)} /P ${P} >>`;
    streamKey = (num) => md5(key, Uint8Array.of(num & 0xff, (num >> 8) & 0xff, (num >> 16) & 0xff, 0, 0), cipher === "aes128" ? Buffer.from("sAlT") : new Uint8Array(0)).subarray(0, 16);
  }
  const bodies = objects.map((obj, i) => {
    if (typeof obj === "string") return obj;
    const key = streamKey(i + 1);
    return streamObject(obj.dict, cipher === "rc4" ? rc4(key, obj.data) : aesCbc(key, obj.data));
  });
  const encryptNum = bodies.length + 1;
  return buildPdf([...bodies, encryptDict], { trailer: `/Encrypt ${encryptNum} 0 R /ID [${hex(id0)} ${hex(id0)}]` });
}

/** A one-page statement as raw PDF objects (Helvetica text at fixed positions), for the test encryptor. */
export function statementObjects(): PlainObject[] {
  const line = (y: number, cells: [number, string][]) => cells.map(([x, t]) => `BT /F1 9 Tf ${x} ${y} Td (${t}) Tj ET`).join("\n");
  const content = [
    line(760, [[40, "Account Name: ADA OBI"]]),
    line(745, [[40, "Account Number: 0123456789"]]),
    line(700, [[40, "Date"], [120, "Narration"], [330, "Debit"], [410, "Credit"], [490, "Balance"]]),
    line(685, [[40, "02/01/2024"], [120, "SALARY"], [330, "0.00"], [410, "10,000.00"], [490, "10,000.00"]]),
    line(670, [[40, "03/01/2024"], [120, "AIRTIME"], [330, "500.00"], [410, "0.00"], [490, "9,500.00"]]),
  ].join("\n");
  return [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    { dict: "", data: new Uint8Array(Buffer.from(content, "latin1")) },
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
  ];
}
/** The rows (narration, debit, credit, balance) statementObjects' table holds. */
export const STATEMENT_ROWS = [
  ["SALARY", "0.00", "10000.00", "10000.00"],
  ["AIRTIME", "500.00", "0.00", "9500.00"],
];
