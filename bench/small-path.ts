/**
 * `bun bench/small-path.ts [pdf...]`: where a small document's sync parse spends its time, stage
 * by stage, in this process (issue 28). Each stage runs BENCH_ITERATIONS times on the same input
 * after a warm-up; the figure is CPU time per run (process.cpuUsage: this process is one thread
 * here, so it is the stage's own CPU; wall time is printed beside it). The stages are the ones a
 * POST /v1/parse goes through:
 *   - the HTTP edge (main thread): reading the multipart upload, the API key lookup, metering's
 *     reservation and its outcome write (PGlite in a temporary directory; also PostgreSQL when
 *     BENCH_POSTGRES_URL is set), the pool hop (a round trip to a worker thread);
 *   - the worker: the guard's scan, opening the document in PDFium (and closing it), reading its
 *     pages, the statement's assembly, the integrity pass (byte facts, page facts, the report),
 *     the response's JSON;
 *   - and the whole: parseStatement, and the request through the app (app.handle, no socket).
 * Defaults: a 1-page and a 6-page corpus statement.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config.ts";
import { sha256Hex } from "../src/crypto.ts";
import { type Db, openPglite, openPostgres } from "../src/db/client.ts";
import { findActiveKeyByHash, issueTestKey } from "../src/db/keys.ts";
import { migrate } from "../src/db/migrate.ts";
import { assembleStatement, parseStatement } from "../src/engine/index.ts";
import { guardPdf } from "../src/engine/guards/index.ts";
import { byteFacts, integrityOf, pageFacts } from "../src/engine/integrity/index.ts";
import { openDocument } from "../src/engine/pdf/extractor.ts";
import { responseJson } from "../src/engine/response-json.ts";
import type { PageText } from "../src/engine/types.ts";
import { readUpload } from "../src/http/upload.ts";
import { createWorkerPool } from "../src/jobs/pool.ts";
import { parseRawKey } from "../src/keys/format.ts";
import { createMetering } from "../src/metering/metering.ts";

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 200);
const ROOT = join(import.meta.dir, "..");
const files = process.argv.length > 2 ? process.argv.slice(2) : ["fixtures/zenith/statement.pdf", "fixtures/replicas/alat_short.pdf"];

interface Timing {
  cpuUs: number;
  wallUs: number;
}

/** Mean CPU and wall time of one run of fn, over ITERATIONS runs after ITERATIONS / 10 unmeasured ones. */
async function measure(fn: () => unknown, n = ITERATIONS): Promise<Timing> {
  for (let i = 0; i < Math.max(3, n / 10); i++) await fn();
  Bun.gc(true);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await fn();
  const wallUs = ((performance.now() - t0) * 1000) / n;
  const cpu = process.cpuUsage(cpu0);
  return { cpuUs: (cpu.user + cpu.system) / n, wallUs };
}

const rows: [string, string, Timing][] = [];
const show = (doc: string, stage: string, t: Timing) => {
  rows.push([doc, stage, t]);
  console.error(`${doc.padEnd(36)} ${stage.padEnd(44)} cpu ${(t.cpuUs / 1000).toFixed(3).padStart(8)} ms   wall ${(t.wallUs / 1000).toFixed(3).padStart(8)} ms`);
};

async function databaseStages(db: Db, label: string) {
  const { key } = await issueTestKey(db, `bench-small-${label}`);
  const caller = (await findActiveKeyByHash(db, sha256Hex(key)))!;
  show(label, "key lookup (shape check, sha256, select)", await measure(async () => {
    if (!parseRawKey(key)) throw new Error("bad key");
    await findActiveKeyByHash(db, sha256Hex(key));
  }));
  const config = loadConfig({}, { TEST_MONTHLY_CAP: "100000000", ADMIN_TOKEN: "x".repeat(32) });
  const metering = createMetering({ db, config, instanceId: "bench-small" });
  const request = { headers: new Headers() };
  show(label, "metering: reservation (test key, under cap)", await measure(() => metering.admit(caller, request)));
  const admissions = await Promise.all(Array.from({ length: ITERATIONS + Math.max(3, ITERATIONS / 10) }, () => metering.admit(caller, request)));
  show(label, "metering: outcome write (succeeded)", await measure(() => admissions.pop()!.succeeded()));
}

// The HTTP edge, main thread.
const pgDir = mkdtempSync(join(tmpdir(), "bench-small-"));
const pglite = await openPglite(pgDir);
await migrate(pglite);
await databaseStages(pglite, "PGlite");
await pglite.close();
rmSync(pgDir, { recursive: true, force: true });
if (process.env.BENCH_POSTGRES_URL) {
  const pg = await openPostgres(process.env.BENCH_POSTGRES_URL);
  await migrate(pg);
  await databaseStages(pg, "PostgreSQL");
  await pg.close();
}

const pool = createWorkerPool({ threads: 1 });
await pool.warm();
show("-", "pool hop (ping round trip to a worker)", await measure(() => pool.run({ op: "ping" })));
await pool.destroy();

for (const file of files) {
  const bytes = new Uint8Array(readFileSync(join(ROOT, file)));
  const form = new FormData();
  form.append("pdf", new Blob([bytes], { type: "application/pdf" }), "statement.pdf");
  const encoded = new Response(form);
  const type = encoded.headers.get("content-type")!;
  const body = new Uint8Array(await encoded.arrayBuffer());
  show(file, "multipart upload read (readUpload)", await measure(() =>
    readUpload(new Request("http://127.0.0.1/v1/parse", { method: "POST", body, headers: { "content-type": type, "content-length": String(body.byteLength) } }), 50 * 1024 * 1024),
  ));
  // A fresh array each time: guardPdf answers the same array once (the copy costs microseconds).
  show(file, "guard scan (guardPdf)", await measure(() => guardPdf(bytes.slice(), { maxPages: 10000 })));
  const report = await guardPdf(bytes, { maxPages: 10000 });
  show(file, "PDFium open + close", await measure(async () => (await openDocument("pdfium", bytes)).close()));
  const pdf = await openDocument("pdfium", bytes);
  const pages: PageText[] = [];
  for (let n = 1; n <= pdf.pageCount; n++) pages.push(await pdf.readPage(n));
  show(file, `read ${pdf.pageCount} page(s) (PDFium text)`, await measure(async () => {
    for (let n = 1; n <= pdf.pageCount; n++) await pdf.readPage(n);
  }));
  show(file, "producer + info (PDFium)", await measure(async () => [await pdf.producer(), await pdf.info()]));
  const producer = await pdf.producer();
  const info = await pdf.info();
  await pdf.close();
  const doc = { kind: "pdf" as const, pageCount: pages.length, producer, pages };
  show(file, "assembly (assembleStatement)", await measure(() => assembleStatement(doc, { bank: undefined })));
  const response = assembleStatement(doc, { bank: undefined });
  show(file, "integrity: byte facts", await measure(() => byteFacts(bytes, { maxPages: pages.length, objectStreams: report.objectStreams })));
  const facts = byteFacts(bytes, { maxPages: pages.length, objectStreams: report.objectStreams });
  show(file, "integrity: page facts", await measure(() => pages.map(pageFacts)));
  const pf = pages.map(pageFacts);
  show(file, "integrity: report (integrityOf)", await measure(() => integrityOf(response, { info, bytes: facts, pages: pf })));
  response.integrity = integrityOf(response, { info, bytes: facts, pages: pf });
  show(file, "JSON (responseJson)", await measure(() => responseJson(response)));
  show(file, "whole: parseStatement in this thread", await measure(() => parseStatement(bytes.slice(), { extractor: "pdfium", limits: { maxPages: 10000, maxXlsxRows: 200000, maxXlsxInflatedBytes: 200 * 1024 * 1024 } })));
}

console.log(["| document | stage | CPU ms | wall ms |", "|---|---|---|---|", ...rows.map(([d, s, t]) => `| ${d} | ${s} | ${(t.cpuUs / 1000).toFixed(3)} | ${(t.wallUs / 1000).toFixed(3)} |`)].join("\n"));
process.exit(0);
