import { describe, expect, test } from "bun:test";
import { deflateSync } from "node:zlib";
import { AppError } from "../../src/errors.ts";
import { countInflated, guardPdf, pdfGuardLimits, scanPdfSyntax } from "../../src/engine/guards/index.ts";
import { ascii85Decode, asciiHexDecode, lzwDecode, runLengthDecode } from "../../src/engine/guards/filters.ts";
import { guardXlsxZip, scanXml } from "../../src/engine/xlsx/zip-guard.ts";
import { buildXlsx, cellsSheet } from "../hostile/generate.ts";
import { encryptedPdf } from "../hostile/encrypt.ts";
import { readPages } from "../../src/engine/pdf/extractor.ts";
import { pdfCrypt } from "../../src/engine/guards/index.ts";
import { ascii85, asciiHex, lzwZeroBomb, zlibBomb } from "../hostile/bombs.ts";
import { buildPdf, flateStream, sample, streamObject } from "../hostile/generate.ts";
import { concat } from "../hostile/zip.ts";
import { rejection } from "../helpers/errors.ts";

const latin1 = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0) & 0xff);

function pdfWith(pagesDict: string, extra: (string | Uint8Array)[] = []): Uint8Array {
  return buildPdf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    pagesDict,
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
    flateStream("", "BT /F1 12 Tf (hi) Tj ET"),
    ...extra,
  ]);
}

/** An object stream holding `objects` (numbered from `first`), Flate-compressed. */
function objStm(objects: string[], first: number): Uint8Array {
  let offset = 0;
  const header: string[] = [];
  for (const [k, o] of objects.entries()) {
    header.push(`${first + k} ${offset}`);
    offset += o.length + 1;
  }
  const head = `${header.join(" ")} `;
  const body = head + objects.join(" ");
  return flateStream(`/Type /ObjStm /N ${objects.length} /First ${head.length}`, body);
}

describe("guardPdf on real statements", () => {
  for (const [name, pages] of [["firstbank.pdf", 1], ["zenith.pdf", 1], ["opay.pdf", 2], ["palmpay.pdf", 2]] as const) {
    test(`${name} passes and its page claim is ${pages}`, async () => {
      const report = await guardPdf(sample(name));
      expect(report.pagesCountClaim).toBe(pages);
      expect(report.maxDepth).toBeLessThan(20);
      expect(report.inflatedBytes).toBeGreaterThan(0);
    });
  }
});

describe("page-tree claim", () => {
  test("a /Count above maxPages is 413 too_many_pages", async () => {
    const e = await rejection(guardPdf(pdfWith("<< /Type /Pages /Kids [3 0 R] /Count 10000000 >>"), { maxPages: 3000 }));
    expect([e.status, e.errorClass]).toEqual([413, "too_many_pages"]);
    expect(e.message).toContain("10000000");
  });
  test("a /Count equal to maxPages passes", async () => {
    const report = await guardPdf(pdfWith("<< /Type /Pages /Kids [3 0 R] /Count 5 >>"), { maxPages: 5 });
    expect(report.pagesCountClaim).toBe(5);
  });
  test("/Count of an outline (not /Type /Pages) is not a page claim", async () => {
    const report = await guardPdf(pdfWith("<< /Type /Pages /Kids [3 0 R] /Count 1 >>", ["<< /Type /Outlines /Count 99999999 >>"]), { maxPages: 10 });
    expect(report.pagesCountClaim).toBe(1);
  });
  test("a claim hidden in a compressed object stream is found", async () => {
    const pdf = pdfWith("<< /Type /Pages /Kids [3 0 R] /Count 1 >>", [objStm(["<< /Type /Pages /Kids [] /Count 4000000 >>"], 9)]);
    const e = await rejection(guardPdf(pdf, { maxPages: 3000 }));
    expect(e.errorClass).toBe("too_many_pages");
  });
  test("a name written with #xx escapes is decoded (/Pag#65s)", async () => {
    const e = await rejection(guardPdf(pdfWith("<< /Type /Pag#65s /Kids [3 0 R] /Count 7000 >>"), { maxPages: 3000 }));
    expect(e.errorClass).toBe("too_many_pages");
  });
});

describe("nesting depth", () => {
  const deep = (depth: number) => pdfWith("<< /Type /Pages /Kids [3 0 R] /Count 1 >>", [`${"[".repeat(depth)}0${"]".repeat(depth)}`]);
  test("100,000 nested arrays are refused as unsupported_format without recursing", async () => {
    const e = await rejection(guardPdf(deep(100_000)));
    expect([e.status, e.errorClass]).toEqual([422, "unsupported_format"]);
  });
  test("nesting up to the limit passes", async () => {
    const report = await guardPdf(deep(40), { maxNestingDepth: 40 });
    expect(report.maxDepth).toBe(40);
    await expect(guardPdf(deep(41), { maxNestingDepth: 40 })).rejects.toThrow("more than 40 levels");
  });
  test("dictionaries count as levels too", async () => {
    const pdf = pdfWith("<< /Type /Pages /Kids [3 0 R] /Count 1 >>", [`${"<< /A ".repeat(300)}0${" >>".repeat(300)}`]);
    expect((await rejection(guardPdf(pdf))).errorClass).toBe("unsupported_format");
  });
  test("an unclosed bracket in one object does not deepen the next", () => {
    const objects = Array.from({ length: 400 }, () => "[ [ 1");
    const s = scanPdfSyntax(buildPdf(["<< /Type /Catalog >>", ...objects]), 256);
    expect(s.depthExceeded).toBe(false);
    expect(s.maxDepth).toBe(2);
  });
  test("brackets inside strings and comments do not count", () => {
    const s = scanPdfSyntax(buildPdf([`<< /A (${"[".repeat(500)}) /B <5b5b> >>`, `% ${"[".repeat(500)}\n[1]`]), 256);
    expect(s.maxDepth).toBe(1);
  });
  test("nesting hidden in an object stream is found", async () => {
    const pdf = pdfWith("<< /Type /Pages /Kids [3 0 R] /Count 1 >>", [objStm([`${"[".repeat(1000)}${"]".repeat(1000)}`], 9)]);
    expect((await rejection(guardPdf(pdf))).errorClass).toBe("unsupported_format");
  });
});

describe("decompression bombs", () => {
  const MiB = 1024 * 1024;
  const bombPdf = (stream: Uint8Array) => pdfWith("<< /Type /Pages /Kids [3 0 R] /Count 1 >>", [stream]);

  test("one stream inflating to 1 GiB is 413 payload_too_large, found in well under a second", async () => {
    const bomb = zlibBomb(new Uint8Array(MiB), 1024);
    const started = performance.now();
    const e = await rejection(guardPdf(bombPdf(streamObject("/Filter /FlateDecode", bomb.data))));
    expect([e.status, e.errorClass]).toEqual([413, "payload_too_large"]);
    // Stopping at the per-stream limit, not inflating the whole gigabyte.
    expect(performance.now() - started).toBeLessThan(5000);
  });
  test("many streams each under the per-stream limit add up to the total limit", async () => {
    const streams = Array.from({ length: 5 }, () => streamObject("/Filter /FlateDecode", zlibBomb(new Uint8Array(MiB), 2).data));
    const pdf = bombPdf(concat(streams.flatMap((s, k) => (k === 0 ? [s] : [latin1(`\nendobj\n${90 + k} 0 obj\n`), s]))));
    const e = await rejection(guardPdf(pdf, { maxStreamInflatedBytes: 4 * MiB, maxInflatedBytes: 8 * MiB }));
    expect(e.errorClass).toBe("payload_too_large");
    expect(e.message).toContain(String(8 * MiB));
    const report = await guardPdf(pdf, { maxStreamInflatedBytes: 4 * MiB, maxInflatedBytes: 16 * MiB });
    expect(report.inflatedBytes).toBeGreaterThanOrEqual(10 * MiB);
  });
  test("a Flate-inside-Flate chain is inflated twice", async () => {
    const inner = zlibBomb(new Uint8Array(MiB), 100).data; // 100 MiB once fully inflated
    const outer = new Uint8Array(deflateSync(inner));
    const e = await rejection(guardPdf(bombPdf(streamObject("/Filter [/FlateDecode /Fl]", outer))));
    expect(e.errorClass).toBe("payload_too_large");
  });
  test("a filter name written with #xx escapes is still Flate", async () => {
    const bomb = zlibBomb(new Uint8Array(MiB), 100).data;
    const e = await rejection(guardPdf(bombPdf(streamObject("/Filter /Fl#61teDecode", bomb))));
    expect(e.errorClass).toBe("payload_too_large");
    // Escaped whole, the name is three times as long as what it decodes to: still read.
    const escaped = [..."RunLengthDecode"].map((ch) => `#${ch.charCodeAt(0).toString(16)}`).join("");
    const runs = new Uint8Array(2 * 1024 * 1024).map((_, k) => (k % 2 === 0 ? 129 : 0x41)); // 128 bytes each
    const e2 = await rejection(guardPdf(bombPdf(streamObject(`/Filter [/${escaped}]`, runs)), { maxStreamInflatedBytes: 16 * MiB }));
    expect(e2.errorClass).toBe("payload_too_large");
  });
  test("long names, of which a statement can hold hundreds of thousands, change nothing the scan reads", async () => {
    const keys = Array.from({ length: 2_000 }, (_, k) => `/Helvetica-Bold-${1_000_000_000 + k} 5 0 R`).join("\n");
    const pdf = latin1(`%PDF-1.7\n1 0 obj\n<< /Type /Pages /Kids [] /Count 3 /Resources << /Font << ${keys} >> >> >>\nendobj\n`);
    const report = await guardPdf(pdf);
    expect(report.pagesCountClaim).toBe(3);
    expect(report.maxDepth).toBe(3);
  });
  test("a /Length that lies does not hide the stream's real extent", async () => {
    const bomb = zlibBomb(new Uint8Array(MiB), 100).data;
    const lying = concat([latin1("<< /Filter /FlateDecode /Length 10 >>\nstream\n"), bomb, latin1("\nendstream")]);
    expect((await rejection(guardPdf(bombPdf(lying)))).errorClass).toBe("payload_too_large");
  });
  test("a bomb followed by corrupt bytes still counts what inflates before the damage", async () => {
    const bomb = zlibBomb(new Uint8Array(MiB), 100).data;
    const damaged = concat([bomb.subarray(0, bomb.length - 200), new Uint8Array(200).fill(0xff)]);
    expect((await rejection(guardPdf(bombPdf(streamObject("/Filter /FlateDecode", damaged))))).errorClass).toBe("payload_too_large");
  });
});

describe("other filters that expand", () => {
  const MiB = 1024 * 1024;
  const bombPdf = (stream: Uint8Array) => pdfWith("<< /Type /Pages /Kids [3 0 R] /Count 1 >>", [stream]);

  test("an LZW bomb (~380 MiB from ~150 KB) is 413 payload_too_large", async () => {
    const bomb = lzwZeroBomb(100_000);
    expect(bomb.data.length).toBeLessThan(200_000);
    const e = await rejection(guardPdf(bombPdf(streamObject("/Filter /LZWDecode", bomb.data))));
    expect([e.status, e.errorClass]).toEqual([413, "payload_too_large"]);
  });
  test("a RunLength bomb (128 bytes per 2) is 413 payload_too_large", async () => {
    const pairs = new Uint8Array(2 * 1024 * 1024).map((_, i) => (i % 2 === 0 ? 129 : 0));
    const e = await rejection(guardPdf(bombPdf(streamObject("/Filter /RL", pairs))));
    expect(e.errorClass).toBe("payload_too_large");
  });
  test("ASCIIHex or ASCII85 in front of a Flate bomb does not hide it", async () => {
    const bomb = zlibBomb(new Uint8Array(MiB), 100).data;
    for (const [filter, encoded] of [["[/AHx /Fl]", asciiHex(bomb)], ["[/ASCII85Decode /FlateDecode]", ascii85(bomb)]] as const) {
      expect((await rejection(guardPdf(bombPdf(streamObject(`/Filter ${filter}`, encoded))))).errorClass, filter).toBe("payload_too_large");
    }
  });
  test("a stream behind an image-only filter is not decoded (pdf.js never decodes it for text)", async () => {
    const report = await guardPdf(bombPdf(streamObject("/Filter [/DCTDecode /FlateDecode]", zlibBomb(new Uint8Array(MiB), 100).data)));
    expect(report.inflatedBytes).toBeLessThan(1000); // the page content stream only
  });

  test("lzwDecode counts exactly, and decodes what it keeps", () => {
    const bomb = lzwZeroBomb(10);
    expect(lzwDecode(bomb.data, 1e9, false)).toMatchObject({ size: bomb.inflatedSize, overLimit: false });
    const kept = lzwDecode(bomb.data, 1e9, true);
    expect(kept.bytes?.length).toBe(bomb.inflatedSize);
    expect(kept.bytes?.every((b) => b === 0)).toBe(true);
    const over = lzwDecode(bomb.data, 1000, true);
    expect(over.overLimit).toBe(true);
    expect(over.bytes).toBeUndefined();
  });
  test("runLengthDecode: literal runs, repeats and the end marker", () => {
    const r = runLengthDecode(Uint8Array.from([2, 65, 66, 67, 254, 68, 128, 69]), 100, true);
    expect(new TextDecoder().decode(r.bytes)).toBe("ABCDDD");
  });
  test("asciiHexDecode and ascii85Decode undo their encodings", () => {
    const data = Uint8Array.from([0, 0, 0, 0, 1, 2, 3, 250, 255, 9]);
    expect([...asciiHexDecode(asciiHex(data))]).toEqual([...data]);
    expect([...(ascii85Decode(ascii85(data), 100).bytes ?? [])]).toEqual([...data]);
    expect(new TextDecoder().decode(asciiHexDecode(new TextEncoder().encode("48 65 6c6C 6>")))).toBe("Hell`");
  });
});

describe("odd syntax", () => {
  test("a filter named after an Object.prototype property is just unknown (no crash)", async () => {
    const pdf = pdfWith("<< /Type /Pages /Kids [3 0 R] /Count 1 >>", [streamObject("/Filter [/constructor /FlateDecode]", latin1("x")), streamObject("/Filter /__proto__", latin1("y"))]);
    const report = await guardPdf(pdf);
    expect(report.streams).toBe(3);
  });
  test("more compressed streams than maxStreams is 413; plain streams are counted but not kept", async () => {
    const many = (dict: string) => Array.from({ length: 50 }, () => streamObject(dict, new Uint8Array(deflateSync(latin1("q Q")))));
    const e = await rejection(guardPdf(pdfWith("<< /Type /Pages /Kids [3 0 R] /Count 1 >>", many("/Filter /FlateDecode")), { maxStreams: 20 }));
    expect([e.status, e.errorClass]).toEqual([413, "payload_too_large"]);
    const plain = await guardPdf(pdfWith("<< /Type /Pages /Kids [3 0 R] /Count 1 >>", many("")), { maxStreams: 20 });
    expect(plain.streams).toBe(51);
  });
  test("numbers: signs and decimals are read, and stream object numbers are recorded", () => {
    const s = scanPdfSyntax(buildPdf(["<< /Type /Pages /Count +12 /X -3.5 /Y .5 >>", "<< /Type /Pages /Count 7.0 >>", streamObject("/Filter /Fl", latin1("z"))]), 256);
    expect(s.pagesCountClaim).toBe(12);
    expect(s.streams[0]?.obj).toEqual({ num: 3, gen: 0 });
  });
});

describe("form XObject nesting", () => {
  /**
   * `count` forms, each drawing the next: object 6+k is form k; with `viaDicts`, its /Resources is
   * an indirect dictionary whose /XObject is another indirect dictionary (objects after the forms).
   */
  function formChain(count: number, opts: { viaDicts?: boolean; cycle?: boolean } = {}): (string | Uint8Array)[] {
    const objs: (string | Uint8Array)[] = [
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /XObject << /X 6 0 R >> >> >>",
      flateStream("", "/X Do"),
      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ];
    const dictBase = 6 + count;
    for (let k = 0; k < count; k++) {
      const target = k + 1 < count ? 6 + k + 1 : opts.cycle ? 6 : undefined;
      const resources = target === undefined ? "<< >>" : opts.viaDicts ? `${dictBase + 2 * k} 0 R` : `<< /XObject << /X ${target} 0 R >> >>`;
      objs.push(flateStream(`/Type /XObject /Subtype /Form /BBox [0 0 1 1] /Resources ${resources}`, target === undefined ? "0 0 m" : "/X Do"));
    }
    if (opts.viaDicts) {
      for (let k = 0; k < count; k++) {
        const target = k + 1 < count ? 6 + k + 1 : 6;
        objs.push(`<< /XObject ${dictBase + 2 * k + 1} 0 R /Font << /F1 5 0 R >> >>`, `<< /X ${target} 0 R >>`);
      }
    }
    return objs;
  }

  test("a chain of 5,000 forms is refused as unsupported_format", async () => {
    const e = await rejection(guardPdf(buildPdf(formChain(5000))));
    expect([e.status, e.errorClass]).toEqual([422, "unsupported_format"]);
    expect(e.message).toContain("form XObjects");
  });
  test("the depth is counted exactly, through indirect /Resources and /XObject dictionaries too", async () => {
    expect((await guardPdf(buildPdf(formChain(12)))).formDepth).toBe(12);
    expect((await guardPdf(buildPdf(formChain(12, { viaDicts: true })))).formDepth).toBe(12);
    await expect(guardPdf(buildPdf(formChain(30, { viaDicts: true })), { maxFormDepth: 29 })).rejects.toThrow("more than 29 deep");
    expect((await guardPdf(buildPdf(formChain(30, { viaDicts: true })), { maxFormDepth: 30 })).formDepth).toBe(30);
  });
  test("a cycle of forms ends (pdf.js refuses to recurse into one)", async () => {
    expect((await guardPdf(buildPdf(formChain(50, { cycle: true })))).formDepth).toBe(50);
  });
  test("forms whose resources sit in a compressed object stream are followed", async () => {
    // Forms 6..(6+n-1) are top-level streams; their /Resources dictionaries live in an object stream.
    const n = 150;
    const top = formChain(n, { viaDicts: true }).slice(0, 6 + n - 1);
    const dicts = formChain(n, { viaDicts: true }).slice(6 + n - 1).map((d) => String(d));
    const pdf = buildPdf([...top, objStm(dicts, 6 + n)]);
    expect((await rejection(guardPdf(pdf))).errorClass).toBe("unsupported_format");
  });
  test("the real statements nest forms at most a few deep", async () => {
    for (const name of ["firstbank.pdf", "zenith.pdf", "opay.pdf", "palmpay.pdf"]) expect((await guardPdf(sample(name))).formDepth).toBeLessThan(5);
  });
});

describe("active content", () => {
  test("JavaScript and embedded files are reported, not refused (text extraction never runs them)", async () => {
    const pdf = buildPdf([
      "<< /Type /Catalog /Pages 2 0 R /OpenAction 5 0 R /Names << /EmbeddedFiles << /Names [(a) 6 0 R] >> >> >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
      flateStream("", "BT (hi) Tj ET"),
      "<< /S /JavaScript /JS (app.alert(1)) >>",
      "<< /Type /Filespec /F (a) /EF << /F 7 0 R >> >>",
      flateStream("/Type /EmbeddedFile", "payload"),
    ]);
    const report = await guardPdf(pdf);
    expect(report.javaScript).toBe(true);
    expect(report.embeddedFiles).toBe(true);
  });
});

describe("countInflated", () => {
  test("counts exactly and keeps the bytes when asked", async () => {
    const data = new Uint8Array(deflateSync(latin1("abc".repeat(1000))));
    const r = await countInflated(data, 10_000, true);
    expect(r).toMatchObject({ size: 3000, overLimit: false });
    expect(new TextDecoder().decode(r.bytes)).toBe("abc".repeat(1000));
  });
  test("stops at the limit", async () => {
    const r = await countInflated(zlibBomb(new Uint8Array(1 << 20), 64).data, 1 << 20, true);
    expect(r.overLimit).toBe(true);
    expect(r.bytes).toBeUndefined();
    expect(r.size).toBeLessThan(4 << 20);
  });
  test("garbage inflates to nothing, without throwing", async () => {
    expect(await countInflated(latin1("not zlib at all"), 100)).toMatchObject({ size: 0, overLimit: false });
  });
});

describe("pdfGuardLimits", () => {
  for (const key of ["maxPages", "maxNestingDepth", "maxStreamInflatedBytes", "maxInflatedBytes", "maxStreams", "maxFormDepth"] as const) {
    test(`options.${key} must be a positive integer`, () => {
      expect(() => pdfGuardLimits({ [key]: 0 })).toThrow(`options.${key} must be a positive integer`);
      expect(() => pdfGuardLimits({ [key]: 1.5 })).toThrow(`options.${key} must be a positive integer`);
    });
  }
  test("defaults fill what is not given", () => {
    expect(pdfGuardLimits({ maxPages: 7 })).toMatchObject({ maxPages: 7, maxNestingDepth: 256 });
  });
});

describe("XLSX cell and shared-string counts before exceljs loads anything", () => {
  const enc = (x: string) => new TextEncoder().encode(x);
  test("scanXml counts <c> and <si> elements, not <col>, <cols> or <sheetData>", () => {
    const scan = scanXml(enc('<cols><col min="1"/></cols><sheetData><row r="1"><c r="A1"><v>1</v></c><x:c r="B1"/><c\tr="C1"></c></row></sheetData><sst><si><t>a</t></si><si/><sid/></sst>'));
    expect(scan).toMatchObject({ rows: 1, cells: 3, strings: 2 });
  });
  test("more cells than maxCells is 413 payload_too_large; at the limit passes", () => {
    const sheet = cellsSheet(Array.from({ length: 10 }, (_, r) => `<row r="${r + 1}">${Array.from({ length: 10 }, (_, c) => `<c r="${String.fromCharCode(65 + c)}${r + 1}"><v>1</v></c>`).join("")}</row>`).join(""));
    const file = buildXlsx(sheet);
    expect(guardXlsxZip(file, { maxRows: 1000, maxInflatedBytes: 1 << 20, maxCells: 100 })).toBe(10);
    try {
      guardXlsxZip(file, { maxRows: 1000, maxInflatedBytes: 1 << 20, maxCells: 99 });
      throw new Error("expected a refusal");
    } catch (e) {
      expect([(e as AppError).status, (e as AppError).errorClass]).toEqual([413, "payload_too_large"]);
    }
  });
  test("a shared-string table longer than maxCells is refused", () => {
    const strings = `<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${"<si><t>x</t></si>".repeat(500)}</sst>`;
    const file = buildXlsx(cellsSheet('<row r="1"><c r="A1" t="s"><v>0</v></c></row>'), { sharedStrings: strings });
    expect(() => guardXlsxZip(file, { maxRows: 1000, maxInflatedBytes: 1 << 20, maxCells: 499 })).toThrow("more than 499 shared strings");
    expect(guardXlsxZip(file, { maxRows: 1000, maxInflatedBytes: 1 << 20, maxCells: 500 })).toBe(1);
  });
});

describe("encrypted PDFs are decrypted before they are measured", () => {
  const TEXT = "BT /F1 12 Tf 72 720 Td (Hello from inside) Tj ET";
  const page = (content: { dict: string; data: Uint8Array }) => [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    content,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  const plain = { dict: "/Filter /FlateDecode", data: new Uint8Array(deflateSync(latin1(TEXT))) };

  for (const cipher of ["rc4", "aes128", "aes256"] as const) {
    test(`${cipher}: opens without a password when the user password is empty, measures the plaintext, and catches a bomb`, async () => {
      const pdf = encryptedPdf(page(plain), cipher);
      // pdf.js reading the text shows the test file is correctly encrypted.
      const read = await readPages("pdfjs", pdf, { first: 1, last: 1 });
      expect(read.pages[0]?.items.map((i) => i.str).join("")).toBe("Hello from inside");
      expect(pdfCrypt(pdf).kind).toBe("open");
      const report = await guardPdf(pdf);
      expect(report).toMatchObject({ encryption: "open", inflatedBytes: TEXT.length });
      const bomb = encryptedPdf(page({ dict: "/Filter /FlateDecode", data: zlibBomb(new Uint8Array(1 << 20), 100).data }), cipher);
      expect((await rejection(guardPdf(bomb))).errorClass).toBe("payload_too_large");
    });
    test(`${cipher}: with a user password, locked without it and open with it`, async () => {
      const pdf = encryptedPdf(page(plain), cipher, "s3cret");
      expect(pdfCrypt(pdf)).toMatchObject({ kind: "locked", reason: "wrong password" });
      expect(pdfCrypt(pdf, "wrong").kind).toBe("locked");
      expect(pdfCrypt(pdf, "s3cret").kind).toBe("open");
      // pdf.js also opens it with the owner password, so the guard must too.
      expect(pdfCrypt(pdf, "owner-secret").kind).toBe("open");
      expect((await readPages("pdfjs", pdf, { first: 1, last: 1, password: "owner-secret" })).pages[0]?.items.length).toBe(1);
      // Locked: nothing can be measured (pdf.js will ask for the password), so nothing is refused here.
      expect((await guardPdf(pdf)).encryption).toBe("locked");
      expect(await guardPdf(pdf, {}, { password: "s3cret" })).toMatchObject({ encryption: "open", inflatedBytes: TEXT.length });
    });
  }

  test("the encrypted sample statement needs a password it does not have: locked", async () => {
    expect((await guardPdf(sample("encrypted.pdf"))).encryption).toBe("locked");
  });
  test("an unencrypted file reports none", async () => {
    expect((await guardPdf(sample("zenith.pdf"))).encryption).toBe("none");
  });
});

describe("guardPdf answers the same array once (issue 28)", () => {
  test("the same array with the same limits and password gets the same report; other limits, another array or another password are guarded anew", async () => {
    const bytes = pdfWith("<< /Type /Pages /Kids [3 0 R] /Count 5 >>");
    const first = guardPdf(bytes, { maxPages: 10 });
    expect(guardPdf(bytes, { maxPages: 10 })).toBe(first);
    const report = await first;
    expect(report.pagesCountClaim).toBe(5);
    const e = await rejection(guardPdf(bytes, { maxPages: 4 }));
    expect(e.errorClass).toBe("too_many_pages");
    expect(await guardPdf(bytes.slice(), { maxPages: 10 })).not.toBe(report);
    expect(await guardPdf(bytes, { maxPages: 10 }, { password: "x" })).not.toBe(report);
  });

  test("a refusal is answered again for the same array", async () => {
    const bytes = pdfWith("<< /Type /Pages /Kids [3 0 R] /Count 10000000 >>");
    const a = await rejection(guardPdf(bytes, { maxPages: 3000 }));
    const b = await rejection(guardPdf(bytes, { maxPages: 3000 }));
    expect([a.errorClass, b.errorClass]).toEqual(["too_many_pages", "too_many_pages"]);
  });
});
