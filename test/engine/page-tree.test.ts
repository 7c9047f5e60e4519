import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { guardPdf } from "../../src/engine/guards/index.ts";
import { parseStatement } from "../../src/engine/index.ts";
import { openPdf, readPage } from "../../src/engine/pdf/extract.ts";
import { pageTreeUpdate, withUpdate } from "../../src/engine/pdf/page-tree.ts";
import { statementPdf } from "../../bench/generate.ts";
import { encryptedPdf, type PlainObject } from "../hostile/encrypt.ts";
import { buildPdf } from "../hostile/generate.ts";

/** A PDF whose pages are all kids of the root /Pages node, each page printing its own number. */
function flatPdf(pages: number, opts: { pagesDict?: (kids: string) => string } = {}): PlainObject[] {
  const first = 4; // 1 catalog, 2 pages, 3 font, then page/content pairs
  const kids = Array.from({ length: pages }, (_, k) => `${first + 2 * k} 0 R`).join(" ");
  const objects: PlainObject[] = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    opts.pagesDict?.(kids) ?? `<< /Type /Pages /MediaBox [0 0 300 200] /Resources << /Font << /F1 3 0 R >> >> /Kids [${kids}] /Count ${pages} >>`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  for (let k = 0; k < pages; k++) {
    // MediaBox and Resources are inherited from the root: re-parenting must keep that working.
    objects.push(`<< /Type /Page /Parent 2 0 R /Contents ${first + 2 * k + 1} 0 R >>`);
    objects.push({ dict: "", data: new Uint8Array(Buffer.from(`BT /F1 12 Tf 20 100 Td (Page ${k + 1}) Tj ET`, "latin1")) });
  }
  return objects;
}

const plain = (objects: PlainObject[]) =>
  buildPdf(objects.map((o) => (typeof o === "string" ? o : new Uint8Array(Buffer.concat([Buffer.from(`<< /Length ${o.data.length} >>\nstream\n`), o.data, Buffer.from("\nendstream")])))));

async function balanced(bytes: Uint8Array, password?: string): Promise<Uint8Array | undefined> {
  const report = await guardPdf(bytes, { maxPages: 10_000 }, { password });
  return pageTreeUpdate(bytes, report.pageTree);
}

/** The text of every page, in page order, as pdf.js reads it. */
async function pageTexts(bytes: Uint8Array, password?: string): Promise<string[]> {
  const doc = await openPdf(bytes, password);
  try {
    const out: string[] = [];
    for (let n = 1; n <= doc.numPages; n++) out.push((await readPage(doc, n)).items.map((i) => i.str).join(" "));
    return out;
  } finally {
    await doc.destroy();
  }
}

const numbered = (pages: number) => Array.from({ length: pages }, (_, k) => `Page ${k + 1}`);

describe("page-tree balancing", () => {
  test("a flat tree of 700 pages gets intermediate nodes; every page reads the same, in order", async () => {
    const bytes = plain(flatPdf(700));
    const update = await balanced(bytes);
    expect(update).toBeDefined();
    const text = Buffer.from(update!).toString("latin1");
    // 700 kids in groups of at most 64: 11 new nodes, and the root rewritten with 11 kids.
    expect(text.match(/\/Type\/Pages\/Parent 2 0 R/g)?.length).toBe(11);
    expect(text).toContain("/Prev ");
    const updated = withUpdate(bytes, update);
    expect(updated.subarray(0, bytes.length)).toEqual(bytes);
    expect(await pageTexts(updated)).toEqual(numbered(700));
    // Another reader sees the new tree too (the update is well-formed, not merely ignored).
    // qpdf reads only files: a scratch copy of this generated test document.
    const dir = mkdtempSync(join(tmpdir(), "page-tree-"));
    const file = join(dir, "balanced.pdf");
    writeFileSync(file, updated);
    const check = Bun.spawnSync(["qpdf", "--check", file]).stdout.toString();
    const root = Bun.spawnSync(["qpdf", "--show-object=2", file]).stdout.toString();
    rmSync(dir, { recursive: true });
    expect(check).toContain("No syntax or stream encoding errors");
    expect(root.match(/ \d+ 0 R/g)?.length).toBe(11 + 1); // 11 kids and the font of the inherited /Resources
    const page65 = Bun.spawnSync(["pdftotext", "-f", "65", "-l", "65", "-", "-"], { stdin: updated }).stdout.toString();
    expect(page65.trim()).toBe("Page 65");
  });

  test("more pages than 64 x 64 take a third level", async () => {
    const update = await balanced(plain(flatPdf(4200)));
    const text = Buffer.from(update!).toString("latin1");
    const counts = [...text.matchAll(/\/Type\/Pages\/Parent (\d+) 0 R\/Count (\d+)/g)].map((m) => [Number(m[1]), Number(m[2])]);
    // Under the root: ceil(4200 / 64 / 64) = 2 nodes holding 4096 and 104 pages.
    expect(counts.filter(([parent]) => parent === 2).map(([, c]) => c)).toEqual([4096, 104]);
    expect(counts.filter(([parent]) => parent !== 2).reduce((s, [, c]) => s + c!, 0)).toBe(4200);
  });

  test("a pdf-lib file (object streams, cross-reference stream) opens from the update alone", async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    for (let k = 0; k < 300; k++) doc.addPage([300, 200]).drawText(`Page ${k + 1}`, { x: 20, y: 100, size: 12, font });
    const bytes = await doc.save();
    const update = await balanced(bytes);
    expect(update).toBeDefined();
    expect(await pageTexts(withUpdate(bytes, update))).toEqual(numbered(300));
  });

  test("a linearized file and one that already has an incremental update are balanced too", async () => {
    const dir = mkdtempSync(join(tmpdir(), "page-tree-"));
    try {
      writeFileSync(join(dir, "flat.pdf"), plain(flatPdf(300)));
      Bun.spawnSync(["qpdf", "--linearize", join(dir, "flat.pdf"), join(dir, "linear.pdf")]);
      const linear = new Uint8Array(readFileSync(join(dir, "linear.pdf")));
      expect(Buffer.from(linear.subarray(0, 1024)).toString("latin1")).toContain("/Linearized");
      const update = await balanced(linear);
      expect(update).toBeDefined();
      expect(await pageTexts(withUpdate(linear, update))).toEqual(numbered(300));
    } finally {
      rmSync(dir, { recursive: true });
    }
    // An earlier update (a new /Info) before ours: the chain of /Prev offsets still reads.
    const base = plain(flatPdf(300));
    const prev = Buffer.from(base).toString("latin1").match(/startxref\s+(\d+)/)![1];
    const info = `\n900 0 obj\n<< /Producer (Second save) >>\nendobj\n`;
    const at = base.length + 1;
    const xrefAt = base.length + Buffer.byteLength(info);
    const updated = new Uint8Array(Buffer.concat([base, Buffer.from(`${info}xref\n900 1\n${String(at).padStart(10, "0")} 00000 n\r\ntrailer\n<< /Size 901 /Root 1 0 R /Info 900 0 R /Prev ${prev} >>\nstartxref\n${xrefAt}\n%%EOF\n`)]));
    const update = await balanced(updated);
    expect(Buffer.from(update!).toString("latin1")).toContain("/Info 900 0 R");
    const doc = await openPdf(withUpdate(updated, update));
    expect(((await doc.getMetadata()).info as { Producer?: string }).Producer).toBe("Second save");
    await doc.destroy();
    expect(await pageTexts(withUpdate(updated, update))).toEqual(numbered(300));
  });

  test("an encrypted flat tree is balanced and still decrypts", async () => {
    const bytes = encryptedPdf(flatPdf(300), "aes128");
    const update = await balanced(bytes);
    expect(Buffer.from(update!).toString("latin1")).toMatch(/\/Encrypt \d+ 0 R/);
    expect(await pageTexts(withUpdate(bytes, update))).toEqual(numbered(300));
  });

  test("a 300-page statement parses to the same reconciled rows through the update", async () => {
    const bytes = await statementPdf(300);
    expect(await balanced(bytes)).toBeDefined();
    const parsed = await parseStatement(bytes);
    expect(parsed.transactions.length).toBe(300 * 38 - 4);
    expect(parsed.row_wise_reconcilable).toBe(true);
    // Making and parsing 300 pages: seconds on a busy two-core machine (timing lives in bench/).
  }, 60_000);

  test("a /Kids array longer than any acceptable document is not collected", async () => {
    const kids = "4 0 R ".repeat(200_001);
    const report = await guardPdf(plain(flatPdf(1, { pagesDict: () => `<< /Type /Pages /Kids [${kids}] /Count 1 >>` })), { maxPages: 10_000 });
    expect(report.pageTree.pagesNodes).toEqual([]);
    expect(report.pageTree.complete).toBe(false);
  });

  test("small, nested or doubtful trees are left alone", async () => {
    expect(await balanced(plain(flatPdf(200)))).toBeUndefined();
    // /Count disagrees with the kids.
    const miscounted = flatPdf(300, { pagesDict: (kids) => `<< /Type /Pages /Kids [${kids}] /Count 299 >>` });
    expect(await balanced(plain(miscounted))).toBeUndefined();
    // One kid is a /Pages node, not a page.
    const nested = flatPdf(300);
    nested[3] = "<< /Type /Pages /Parent 2 0 R /Kids [] /Count 0 >>";
    expect(await balanced(plain(nested))).toBeUndefined();
    // The same kid twice.
    const twice = flatPdf(300, { pagesDict: (kids) => `<< /Type /Pages /Kids [${kids.replace("6 0 R", "4 0 R")}] /Count 300 >>` });
    expect(await balanced(plain(twice))).toBeUndefined();
    // An earlier update already redefined the root: which one pdf.js reads is not for us to guess.
    const redefined = Buffer.concat([plain(flatPdf(300)), Buffer.from("\n2 0 obj\n<< /Type /Pages /Kids [4 0 R] /Count 1 >>\nendobj\n")]);
    expect(await balanced(new Uint8Array(redefined))).toBeUndefined();
  });
});
