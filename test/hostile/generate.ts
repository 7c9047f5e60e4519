/**
 * Hostile and broken uploads, made here byte by byte (never downloaded). Each case says what the
 * service must answer: a 4xx envelope with one of the listed error classes, or a correct 200 when
 * the file is in fact a valid statement (then `sameAs` names the sample whose result it must equal).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import { ascii85, lzwZeroBomb, rawDeflateBomb, zlibBomb } from "./bombs.ts";
import { encryptedPdf } from "./encrypt.ts";
import { concat, deflatedEntry, storedEntry, writeZip, type ZipEntry } from "./zip.ts";

export const SAMPLES_DIR = process.env.SAMPLES_DIR ?? join(import.meta.dir, "../../fixtures/real");
export const sample = (name: string): Uint8Array => new Uint8Array(readFileSync(join(SAMPLES_DIR, name)));

export interface HostileCase {
  name: string;
  filename: string;
  bytes: Uint8Array;
  /** Accepted statuses; 200 only where the file is a real statement in disguise. */
  statuses: number[];
  /** Accepted error classes for a 4xx; `null` allows the 422 validation body (no error_class). */
  classes: (string | null)[];
  /** For a 200: the sample whose normal parse the answer must equal. */
  sameAs?: string;
  /** Sent in the `password` form field. */
  password?: string;
}

const enc = new TextEncoder();
const latin1 = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0) & 0xff);

/** Everything a valid but non-statement document may end in. */
export const NOT_A_STATEMENT = ["layout_unrecognized", "empty_statement", "scanned_document", "unsupported_format"];

// ---------------------------------------------------------------------------------------------
// PDF building: object bodies in, a file with a correct xref table out (unless told to lie).

type Body = string | Uint8Array;

export function streamObject(dict: string, data: Uint8Array): Uint8Array {
  return concat([latin1(`<<${dict} /Length ${data.length}>>\nstream\n`), data, latin1("\nendstream")]);
}

export function flateStream(dict: string, content: string | Uint8Array): Uint8Array {
  const raw = typeof content === "string" ? latin1(content) : content;
  return streamObject(`${dict} /Filter /FlateDecode`, new Uint8Array(deflateSync(raw)));
}

export interface PdfOptions {
  /** Extra trailer entries, e.g. "/Info 9 0 R". */
  trailer?: string;
  /** Shift every xref offset by this much (a broken xref table). */
  xrefSkew?: number;
  /** Replace the startxref value. */
  startxref?: number;
}

/** Objects numbered from 1 in order; object 1 must be the catalog. */
export function buildPdf(objects: Body[], opts: PdfOptions = {}): Uint8Array {
  const parts: Uint8Array[] = [latin1("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")];
  let size = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(size);
    const chunk = concat([latin1(`${i + 1} 0 obj\n`), typeof body === "string" ? latin1(body) : body, latin1("\nendobj\n")]);
    parts.push(chunk);
    size += chunk.length;
  });
  const skew = opts.xrefSkew ?? 0;
  const xref = [`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`, ...offsets.map((o) => `${String(o + skew).padStart(10, "0")} 00000 n \n`)].join("");
  parts.push(latin1(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${opts.trailer ?? ""}>>\nstartxref\n${opts.startxref ?? size}\n%%EOF\n`));
  return concat(parts);
}

const HELLO = "BT /F1 12 Tf 72 720 Td (Hello, this is not a bank statement) Tj ET";

/** A valid one-page document with a text layer; `extra` adds catalog entries and objects from 6 on. */
function helloPdf(catalogExtra = "", extraObjects: Body[] = [], content: Body = flateStream("", HELLO), font = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"): Uint8Array {
  return buildPdf([
    `<< /Type /Catalog /Pages 2 0 R ${catalogExtra}>>`,
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    content,
    font,
    ...extraObjects,
  ]);
}

/** Deterministic pseudo-random bytes (xorshift), so a failing case can be reproduced. */
export function garbage(length: number, seed = 0x2545f491): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}

/** A broken TrueType program: a table directory claiming 65535 tables whose offsets point nowhere. */
function brokenTrueType(): Uint8Array {
  const b = new Uint8Array(4096);
  const v = new DataView(b.buffer);
  v.setUint32(0, 0x00010000);
  v.setUint16(4, 0xffff);
  const tags = ["cmap", "glyf", "head", "hhea", "hmtx", "loca", "maxp", "name", "post"];
  tags.forEach((tag, i) => {
    const at = 12 + i * 16;
    for (let k = 0; k < 4; k++) b[at + k] = tag.charCodeAt(k);
    v.setUint32(at + 8, 0x7ffffff0 - i); // offset far past the end
    v.setUint32(at + 12, 0xfffffff0); // length of 4 GB
  });
  b.set(garbage(4096 - 160, 7), 160);
  return b;
}

/** A Type1 program whose eexec section is noise and whose lengths lie. */
function brokenType1(): Uint8Array {
  return concat([latin1("%!PS-AdobeFont-1.0: Evil 001\n/FontName /Evil def\n/Encoding 256 array\ncurrentfile eexec\n"), garbage(3000, 11)]);
}

function nested(open: string, close: string, depth: number, core = "0"): string {
  return open.repeat(depth) + core + close.repeat(depth);
}

// ---------------------------------------------------------------------------------------------
// XLSX building.

export function buildXlsx(sheetXml: string | ZipEntry, opts: { sharedStrings?: string | ZipEntry; extra?: ZipEntry[] } = {}): Uint8Array {
  const sheet = typeof sheetXml === "string" ? deflatedEntry("xl/worksheets/sheet1.xml", sheetXml) : sheetXml;
  const strings = opts.sharedStrings === undefined ? undefined : typeof opts.sharedStrings === "string" ? deflatedEntry("xl/sharedStrings.xml", opts.sharedStrings) : opts.sharedStrings;
  return writeZip([
    deflatedEntry(
      "[Content_Types].xml",
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>${strings ? '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>' : ""}</Types>`,
    ),
    deflatedEntry(
      "_rels/.rels",
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ),
    deflatedEntry(
      "xl/workbook.xml",
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ),
    deflatedEntry(
      "xl/_rels/workbook.xml.rels",
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>${strings ? '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>' : ""}</Relationships>`,
    ),
    sheet,
    ...(strings ? [strings] : []),
    ...(opts.extra ?? []),
  ]);
}

const SHEET_HEAD = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`;
const SHEET_TAIL = `</sheetData></worksheet>`;

/** A sheet whose XML inflates to `inflatedSize` bytes of whitespace between the rows. */
function sheetBombEntry(name: string, gib: number, declared: "honest" | "lying"): ZipEntry {
  const chunk = new Uint8Array(1 << 20).fill(0x20);
  const repeats = Math.round(gib * 1024);
  // Head + whitespace + tail; the head and tail are tiny, deflated as their own full-flush blocks.
  const head = rawDeflateBomb(enc.encode(SHEET_HEAD), 1);
  const body = rawDeflateBomb(chunk, repeats);
  const tail = rawDeflateBomb(enc.encode(SHEET_TAIL), 1);
  // Drop the empty final blocks of head and body so the three join into one stream.
  const raw = concat([head.raw.subarray(0, head.raw.length - 2), body.raw.subarray(0, body.raw.length - 2), tail.raw]);
  const inflated = SHEET_HEAD.length + chunk.length * repeats + SHEET_TAIL.length;
  return { name, data: raw, method: 8, uncompressedSize: declared === "honest" ? Math.min(inflated, 0xffffffff) : 4096, crc: 0x12345678 };
}

export function cellsSheet(cells: string): string {
  return `${SHEET_HEAD}${cells}${SHEET_TAIL}`;
}

// ---------------------------------------------------------------------------------------------

/** Every hostile case. Big ones are built on demand and cost about a megabyte each. */
export function hostileCases(): HostileCase[] {
  const firstbank = sample("firstbank.pdf");
  const opayXlsx = sample("opay.xlsx");
  const zenith = sample("zenith.pdf");
  const four22 = (classes: string[] = NOT_A_STATEMENT) => ({ statuses: [422], classes });
  const cases: HostileCase[] = [];
  const add = (c: HostileCase) => cases.push(c);

  // --- PDFs that are not PDFs, or hardly.
  add({ name: "zero bytes", filename: "empty.pdf", bytes: new Uint8Array(0), statuses: [422, 400], classes: ["unsupported_format", "validation_error", null] });
  add({ name: "garbage", filename: "garbage.pdf", bytes: garbage(64 * 1024), ...four22(["unsupported_format"]) });
  add({ name: "header only", filename: "header.pdf", bytes: latin1("%PDF-1.7\n"), ...four22(["unsupported_format"]) });
  add({ name: "PDF header then garbage", filename: "pdfgarbage.pdf", bytes: concat([latin1("%PDF-1.4\n"), garbage(200_000, 3)]), ...four22(["unsupported_format"]) });
  add({ name: "truncated statement (60%)", filename: "truncated.pdf", bytes: firstbank.slice(0, Math.floor(firstbank.length * 0.6)), statuses: [200, 422], classes: NOT_A_STATEMENT });
  add({ name: "truncated statement (first 1 KiB)", filename: "truncated1k.pdf", bytes: firstbank.slice(0, 1024), ...four22() });

  // --- Broken structure.
  add({ name: "broken xref of a real statement", filename: "brokenxref.pdf", bytes: breakXref(zenith), statuses: [200], classes: [], sameAs: "zenith.pdf" });
  add({ name: "xref offsets all wrong", filename: "xrefskew.pdf", bytes: buildHello({ xrefSkew: 977 }), ...four22() });
  add({
    name: "object reference loop",
    filename: "refloop.pdf",
    bytes: buildPdf([
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [2 0 R 3 0 R] /Count 2 >>",
      "<< /Type /Pages /Parent 2 0 R /Kids [3 0 R 2 0 R] /Count 1 >>",
      "<< /Length 4 0 R /Foo 5 0 R >>",
      "5 0 R",
    ]),
    ...four22(),
  });
  add({
    name: "indirect stream length pointing at itself",
    filename: "lengthloop.pdf",
    bytes: buildPdf([
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
      concat([latin1("<< /Length 4 0 R >>\nstream\n"), latin1(HELLO), latin1("\nendstream")]),
    ]),
    ...four22(),
  });
  add({ name: "100k nested arrays", filename: "deeparray.pdf", bytes: helloPdf(`/Evil ${nested("[", "]", 100_000)}`), ...four22(["unsupported_format"]) });
  add({ name: "100k nested dictionaries", filename: "deepdict.pdf", bytes: helloPdf(`/Evil ${nested("<< /A ", " >>", 100_000)}`), ...four22(["unsupported_format"]) });
  add({ name: "100k nested arrays in a content stream (pdf.js gives up on the operator)", filename: "deepcontent.pdf", bytes: helloPdf("", [], flateStream("", `${HELLO}\nBT ${nested("[", "]", 100_000, "(x)")} TJ ET`)), ...four22() });

  add({ name: "5,000 form XObjects each drawing the next", filename: "formchain.pdf", bytes: formChainPdf(5000), ...four22(["unsupported_format"]) });

  // --- Bombs and lies about size.
  const bombContent = zlibBomb(latin1("0 0 m 1 1 l S\n".repeat(74_898)), 1024); // ~1 GiB of path operators
  add({ name: "Flate bomb in a content stream (1 GiB)", filename: "flatebomb.pdf", bytes: helloPdf("", [], streamObject("/Filter /FlateDecode", bombContent.data)), statuses: [413, 422], classes: ["payload_too_large", "unsupported_format"] });
  const zeros = zlibBomb(new Uint8Array(1 << 20), 2048); // 2 GiB of zero bytes
  add({ name: "Flate bomb in a font program (2 GiB)", filename: "fontbomb.pdf", bytes: fontPdf(zeros.data, "/FontFile2"), statuses: [413, 422], classes: ["payload_too_large", "unsupported_format"] });
  add({ name: "LZW bomb in a content stream (1.1 GiB from 450 KB)", filename: "lzwbomb.pdf", bytes: helloPdf("", [], streamObject("/Filter /LZWDecode", lzwZeroBomb(300_000).data)), statuses: [413], classes: ["payload_too_large"] });
  add({ name: "Flate bomb behind ASCII85 (1 GiB)", filename: "a85bomb.pdf", bytes: helloPdf("", [], streamObject("/Filter [/A85 /Fl]", ascii85(bombContent.data))), statuses: [413], classes: ["payload_too_large"] });
  // Encrypted streams are ciphertext to a byte scan: the guard decrypts them before measuring.
  const bombPage = (dict: string, data: Uint8Array) => [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    { dict, data },
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  add({ name: "Flate bomb in an RC4-encrypted PDF that opens without a password", filename: "rc4bomb.pdf", bytes: encryptedPdf(bombPage("/Filter /FlateDecode", bombContent.data), "rc4"), statuses: [413], classes: ["payload_too_large"] });
  add({ name: "LZW bomb in an AES-256-encrypted PDF that opens without a password", filename: "aes256bomb.pdf", bytes: encryptedPdf(bombPage("/Filter /LZWDecode", lzwZeroBomb(300_000).data), "aes256"), statuses: [413], classes: ["payload_too_large"] });
  add({ name: "Flate bomb in an AES-128 PDF, its user password supplied", filename: "aes128bomb.pdf", bytes: encryptedPdf(bombPage("/Filter /FlateDecode", bombContent.data), "aes128", "open-sesame"), password: "open-sesame", statuses: [413], classes: ["payload_too_large"] });
  add({ name: "12-page AES-128 PDF, user password supplied, bomb on page 11 (the split path)", filename: "splitbomb.pdf", bytes: encryptedPdf(manyPages(12, 11, bombContent.data), "aes128", "pw"), password: "pw", statuses: [413], classes: ["payload_too_large"] });
  add({ name: "AES-128 PDF with a user password, none supplied", filename: "aes128locked.pdf", bytes: encryptedPdf(bombPage("/Filter /FlateDecode", bombContent.data), "aes128", "open-sesame"), statuses: [422], classes: ["encrypted_source"] });
  add({
    name: "page tree claiming 10,000,000 pages",
    filename: "manypages.pdf",
    bytes: buildPdf([
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 10000000 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
      flateStream("", HELLO),
      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]),
    statuses: [413],
    classes: ["too_many_pages"],
  });

  // --- Active content and crafted fonts: inert for text extraction, so "not a statement".
  add({
    name: "JavaScript and an embedded file",
    filename: "javascript.pdf",
    bytes: helloPdf("/OpenAction 6 0 R /Names << /JavaScript << /Names [(x) 6 0 R] >> /EmbeddedFiles << /Names [(evil.exe) 7 0 R] >> >> /AA << /WC 6 0 R >>", [
      "<< /S /JavaScript /JS (while(true){app.alert('x')}) >>",
      "<< /Type /Filespec /F (evil.exe) /EF << /F 8 0 R >> >>",
      flateStream("/Type /EmbeddedFile", garbage(50_000, 5)),
    ]),
    ...four22(),
  });
  add({ name: "broken TrueType font program", filename: "badttf.pdf", bytes: fontPdf(new Uint8Array(deflateSync(brokenTrueType())), "/FontFile2"), ...four22() });
  add({ name: "broken Type1 font program", filename: "badtype1.pdf", bytes: fontPdf(new Uint8Array(deflateSync(brokenType1())), "/FontFile"), ...four22() });
  add({ name: "encrypted PDF with a user password", filename: "encrypted.pdf", bytes: sample("encrypted.pdf"), ...four22(["encrypted_source"]) });

  // --- Wrong extension: sniffed by content, so they parse as what they are.
  add({ name: "PDF statement named .xlsx", filename: "statement.xlsx", bytes: firstbank, statuses: [200], classes: [], sameAs: "firstbank.pdf" });
  add({ name: "XLSX statement named .pdf", filename: "statement.pdf", bytes: opayXlsx, statuses: [200], classes: [], sameAs: "opay.xlsx" });

  // --- Hostile XLSX.
  const zipBomb = (declared: "honest" | "lying") => buildXlsx(sheetBombEntry("xl/worksheets/sheet1.xml", 1, declared));
  add({ name: "zip bomb, sizes declared (1 GiB sheet)", filename: "zipbomb.xlsx", bytes: zipBomb("honest"), statuses: [413, 422], classes: ["payload_too_large", "unsupported_format"] });
  add({ name: "zip bomb, declared sizes lie (4 KiB claimed, 1 GiB real)", filename: "zipbomb-lying.xlsx", bytes: zipBomb("lying"), statuses: [413, 422], classes: ["payload_too_large", "unsupported_format"] });
  add({
    name: "XML with DOCTYPE and external entities",
    filename: "xxe.xlsx",
    bytes: buildXlsx(cellsSheet(`<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="inlineStr"><is><t>&xxe;&lol9;</t></is></c></row>`).replace("<worksheet", `<!DOCTYPE worksheet [<!ENTITY xxe SYSTEM "file:///etc/passwd"><!ENTITY lol "lol"><!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;"><!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">]><worksheet`), {
      sharedStrings: `<?xml version="1.0"?><!DOCTYPE sst [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="1" uniqueCount="1"><si><t>&xxe;</t></si></sst>`,
    }),
    ...four22(),
  });
  add({
    name: "huge shared strings (one 64 MiB string, 200k small ones)",
    filename: "hugestrings.xlsx",
    bytes: buildXlsx(cellsSheet(`<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>199999</v></c></row>`), { sharedStrings: hugeSharedStrings() }),
    statuses: [413, 422],
    classes: ["payload_too_large", ...NOT_A_STATEMENT],
  });
  add({
    name: "cell references beyond Excel's grid",
    filename: "beyondgrid.xlsx",
    bytes: buildXlsx(cellsSheet(`<row r="1"><c r="ZZZZ1" t="inlineStr"><is><t>far</t></is></c></row><row r="1048577"><c r="XFD1048577" t="inlineStr"><is><t>beyond</t></is></c></row><row r="2147483647"><c r="A2147483647"><v>1</v></c></row>`)),
    ...four22(),
  });
  add({ name: "10 million cell elements in 120 MB of sheet XML (1 MB zipped)", filename: "manycells.xlsx", bytes: buildXlsx(manyCellsEntry()), statuses: [413], classes: ["payload_too_large"] });
  add({ name: "zip that is not a workbook", filename: "notworkbook.xlsx", bytes: writeZip([deflatedEntry("hello.txt", "hello")]), ...four22(["unsupported_format"]) });
  add({ name: "zip magic then garbage", filename: "zipgarbage.xlsx", bytes: concat([latin1("PK\x03\x04"), garbage(100_000, 9)]), ...four22(["unsupported_format"]) });
  add({ name: "zip entry with an unknown compression method", filename: "method99.xlsx", bytes: writeZip([{ ...storedEntry("xl/workbook.xml", "<workbook/>"), method: 99 as 0 }]), ...four22(["unsupported_format"]) });
  return cases;
}

/** `count` pages of text; page `bombAt` (1-based) draws with `bomb` (zlib data) instead. */
function manyPages(count: number, bombAt: number, bomb: Uint8Array): ({ dict: string; data: Uint8Array } | string)[] {
  // Objects: 1 catalog, 2 pages, 3 font, then a page and its content per page.
  const kids = Array.from({ length: count }, (_, k) => `${4 + 2 * k} 0 R`).join(" ");
  const objects: ({ dict: string; data: Uint8Array } | string)[] = ["<< /Type /Catalog /Pages 2 0 R >>", `<< /Type /Pages /Kids [${kids}] /Count ${count} >>`, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"];
  for (let k = 0; k < count; k++) {
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${5 + 2 * k} 0 R /Resources << /Font << /F1 3 0 R >> >> >>`);
    objects.push({ dict: "/Filter /FlateDecode", data: k + 1 === bombAt ? bomb : new Uint8Array(deflateSync(latin1(`BT /F1 12 Tf 72 720 Td (Page ${k + 1}) Tj ET`))) });
  }
  return objects;
}

/** Forms 6.. each drawing the next: pdf.js took 10 s and 1.1 GB on 5,000, 150 s and 3.8 GB on 10,000. */
function formChainPdf(count: number): Uint8Array {
  const objects: Body[] = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> /XObject << /X 6 0 R >> >> >>",
    flateStream("", `${HELLO} /X Do`),
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  for (let k = 0; k < count; k++) {
    objects.push(flateStream(`/Type /XObject /Subtype /Form /BBox [0 0 10 10] /Resources << /Font << /F1 5 0 R >> /XObject << /X ${7 + k} 0 R >> >>`, "BT /F1 12 Tf (in) Tj ET /X Do"));
  }
  return buildPdf(objects);
}

function buildHello(opts: PdfOptions): Uint8Array {
  return buildPdf(
    [
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
      flateStream("", HELLO),
      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ],
    opts,
  );
}

/** A page whose only font embeds `program` (already Flate-compressed) as /FontFile or /FontFile2. */
function fontPdf(program: Uint8Array, key: "/FontFile" | "/FontFile2"): Uint8Array {
  const subtype = key === "/FontFile2" ? "/TrueType" : "/Type1";
  return buildPdf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    flateStream("", HELLO),
    `<< /Type /Font /Subtype ${subtype} /BaseFont /Evil /FirstChar 32 /LastChar 126 /Widths [${"500 ".repeat(95)}] /FontDescriptor 6 0 R >>`,
    `<< /Type /FontDescriptor /FontName /Evil /Flags 32 /FontBBox [0 0 1000 1000] /ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 ${key} 7 0 R >>`,
    streamObject("/Filter /FlateDecode /Length1 4096 /Length2 3000 /Length3 0", program),
  ]);
}

/** The statement with its startxref pointing into the middle of the file: readers must rebuild the xref. */
function breakXref(pdf: Uint8Array): Uint8Array {
  const text = new TextDecoder("latin1").decode(pdf);
  const at = text.lastIndexOf("startxref");
  if (at < 0) throw new Error("sample has no startxref");
  const tail = text.slice(at).replace(/startxref\s+\d+/, "startxref\n17");
  return concat([pdf.subarray(0, at), latin1(tail)]);
}

/** 100,000 rows of 100 empty cells: under every size and row limit, far over the cell limit. */
function manyCellsEntry(): ZipEntry {
  const col = (c: number) => (c < 26 ? String.fromCharCode(65 + c) : String.fromCharCode(64 + Math.floor(c / 26)) + String.fromCharCode(65 + (c % 26)));
  // Ten distinct rows, repeated: deflate then finds every repeat within its window.
  const rows = Array.from({ length: 10 }, (_, r) => `<row r="${r + 1}">${Array.from({ length: 100 }, (_, c) => `<c r="${col(c)}${r + 1}"/>`).join("")}</row>`).join("").repeat(100);
  const head = rawDeflateBomb(enc.encode(SHEET_HEAD), 1);
  const body = rawDeflateBomb(enc.encode(rows), 100);
  const tail = rawDeflateBomb(enc.encode(SHEET_TAIL), 1);
  const raw = concat([head.raw.subarray(0, head.raw.length - 2), body.raw.subarray(0, body.raw.length - 2), tail.raw]);
  const size = SHEET_HEAD.length + body.inflatedSize + SHEET_TAIL.length;
  return { name: "xl/worksheets/sheet1.xml", data: raw, method: 8, uncompressedSize: size, crc: 0 };
}

function hugeSharedStrings(): ZipEntry {
  const head = `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="200001" uniqueCount="200001"><si><t>`;
  const small = Array.from({ length: 200_000 }, (_, i) => `<si><t>s${i}</t></si>`).join("");
  const xml = `${head}${"A".repeat(64 * 1024 * 1024)}</t></si>${small}</sst>`;
  return deflatedEntry("xl/sharedStrings.xml", xml);
}
