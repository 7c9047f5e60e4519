/**
 * Memory bombs that are tiny files (issue 29 item 6), over real HTTP: what a document PRODUCES when
 * read is bounded, not only what it inflates to. A 2 MB XLSX of 900,000 cells all pointing at one
 * 32,000-character shared string, and a PDF of 2 million text operators sent for redaction, are
 * refused early with 413 payload_too_large while the process stays small; and refusals like these
 * are limited per key (HOSTILE_REFUSALS_PER_KEY), since failed parses are never counted.
 */
import { describe, expect, test } from "bun:test";
import { deflateSync } from "node:zlib";
import { startTestServer } from "../helpers/server.ts";
import { postParse, testKey } from "./client.ts";
import { buildXlsx, cellsSheet, sample } from "./generate.ts";

const REFUSALS = 3;
const server = await startTestServer({ TEST_MONTHLY_CAP: "100000", WORKERS: "2", HOSTILE_REFUSALS_PER_KEY: String(REFUSALS), HOSTILE_REFUSAL_WINDOW_S: "600" });

/** A workbook whose `cells` cells (rows of ten) all show shared string 0, `chars` characters long. */
function sharedStringBomb(cells: number, chars: number): Uint8Array {
  const rows: string[] = [];
  for (let r = 0; r < cells / 10; r++) rows.push(`<row>${'<c t="s"><v>0</v></c>'.repeat(10)}</row>`);
  const sst = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${cells}" uniqueCount="1"><si><t>${"A".repeat(chars)}</t></si></sst>`;
  return buildXlsx(cellsSheet(rows.join("")), { sharedStrings: sst });
}

/** One page, a header, then `n` one-character text operators: ~55 KB for 2 million. */
function operatorBomb(n: number): Uint8Array {
  const content = `BT /F1 9 Tf 50 760 Td (Account Name:) Tj 80 0 Td (ADEYEMI OLUWASEUN) Tj ET\nBT /F1 1 Tf 50 100 Td ${"(a)Tj ".repeat(n)}ET`;
  const stream = deflateSync(new TextEncoder().encode(content), { level: 9 });
  const latin1 = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
  const parts: Uint8Array[] = [];
  const offsets: number[] = [];
  let size = 0;
  const add = (b: Uint8Array) => {
    parts.push(b);
    size += b.length;
  };
  add(latin1("%PDF-1.7\n"));
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  objects.forEach((o, i) => {
    offsets.push(size);
    add(latin1(`${i + 1} 0 obj\n${o}\nendobj\n`));
  });
  offsets.push(size);
  add(latin1(`5 0 obj\n<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`));
  add(stream);
  add(latin1("\nendstream\nendobj\n"));
  const xref = size;
  add(latin1(`xref\n0 6\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`));
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Peak resident size of this process (server and workers) while `run` runs, sampled every 20 ms. */
async function peakRssGrowthMiB<T>(run: () => Promise<T>): Promise<{ result: T; growth: number }> {
  Bun.gc(true);
  const base = process.memoryUsage().rss;
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  try {
    const result = await run();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, growth: Math.round((peak - base) / (1024 * 1024)) };
  } finally {
    clearInterval(timer);
  }
}

describe("XLSX shared-string bombs", () => {
  test("900,000 cells pointing at one 32,000-character string (2 MB): 413 payload_too_large at once", async () => {
    const bomb = sharedStringBomb(900_000, 32_000);
    expect(bomb.length).toBeLessThan(3 * 1024 * 1024);
    const key = await testKey(server);
    const { result, growth } = await peakRssGrowthMiB(() => postParse(server, key, bomb, "statement.xlsx"));
    expect({ status: result.status, error_class: result.json?.error_class }).toEqual({ status: 413, error_class: "payload_too_large" });
    expect(result.ms).toBeLessThan(15_000);
    expect(growth).toBeLessThan(600);
  });

  test("10,000 such cells (320 million characters) are refused too, for a parse and for redaction", async () => {
    const bomb = sharedStringBomb(10_000, 32_000);
    const key = await testKey(server);
    const parse = await postParse(server, key, bomb, "statement.xlsx");
    expect({ status: parse.status, error_class: parse.json?.error_class }).toEqual({ status: 413, error_class: "payload_too_large" });
    const redact = await postParse(server, key, bomb, "statement.xlsx", "", { redact: "true" });
    expect({ status: redact.status, error_class: redact.json?.error_class }).toEqual({ status: 413, error_class: "payload_too_large" });
  });
});

describe("PDF operator bombs sent for redaction", () => {
  test("2 million text operators (~55 KB): 413 payload_too_large before the document is read, the process stays small", async () => {
    const bomb = operatorBomb(2_000_000);
    expect(bomb.length).toBeLessThan(64 * 1024);
    const key = await testKey(server);
    const { result, growth } = await peakRssGrowthMiB(() => postParse(server, key, bomb, "statement.pdf", "", { redact: "true" }));
    expect({ status: result.status, error_class: result.json?.error_class }).toEqual({ status: 413, error_class: "payload_too_large" });
    expect(result.ms).toBeLessThan(15_000);
    expect(growth).toBeLessThan(600);
  });

  test("300,000 text operators (a 3 KB file) are refused the same way", async () => {
    const key = await testKey(server);
    const r = await postParse(server, key, operatorBomb(300_000), "statement.pdf", "", { redact: "true" });
    expect({ status: r.status, error_class: r.json?.error_class }).toEqual({ status: 413, error_class: "payload_too_large" });
  });

  test("a real statement is still redacted", async () => {
    const key = await testKey(server);
    const r = await postParse(server, key, sample("zenith.pdf"), "statement.pdf", "", { redact: "true" });
    expect(r.status).toBe(200);
  });
});

describe("refusals of hostile files per key (HOSTILE_REFUSALS_PER_KEY)", () => {
  test(`after ${REFUSALS} refusals the key gets 429 rate_limited with Retry-After; another key is not affected`, async () => {
    const bomb = sharedStringBomb(10_000, 32_000);
    const key = await testKey(server);
    for (let i = 0; i < REFUSALS; i++) expect((await postParse(server, key, bomb, "statement.xlsx")).status).toBe(413);
    const form = new FormData();
    form.append("pdf", new File([new Uint8Array(sample("zenith.pdf"))], "statement.pdf"));
    const res = await server.fetch("/v1/parse", { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form });
    expect(res.status).toBe(429);
    expect(((await res.json()) as { error_class: string }).error_class).toBe("rate_limited");
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(500);
    // A job is refused too.
    const jobs = await server.fetch("/v1/parse/jobs", { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form });
    expect(jobs.status).toBe(429);
    // Another owner's key still parses.
    const other = await testKey(server);
    expect((await postParse(server, other, sample("zenith.pdf"), "statement.pdf")).status).toBe(200);
  });

  test("honest failures (a file that is no statement) are not counted", async () => {
    const key = await testKey(server);
    const junk = new TextEncoder().encode("%PDF-1.4\nnot really a pdf\n");
    for (let i = 0; i < REFUSALS + 2; i++) expect((await postParse(server, key, junk, "statement.pdf")).status).toBe(422);
    expect((await postParse(server, key, sample("zenith.pdf"), "statement.pdf")).status).toBe(200);
  });
});
