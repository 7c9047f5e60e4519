/**
 * Piscina worker of the OCR pool (src/jobs/ocr-pool.ts): renders a page with this thread's PDFium
 * into a grey bitmap in memory, reads it with this thread's tesseract.js worker, and assembles a
 * document's OCR'd pages with the engine. The tesseract worker (~75 MB of wasm and model) is made
 * on first use, kept while pages keep coming, and terminated after OCR_IDLE_MS without one, after
 * a page that timed out, and when the engine failed.
 */
import { threadId } from "node:worker_threads";
import type { Worker as Tesseract } from "tesseract.js";
import { workerData } from "piscina";
import { toCsv } from "../src/engine/csv.ts";
import { deskewWords, skewSlope } from "../src/engine/ocr/deskew.ts";
import { planScan } from "../src/engine/ocr/plan.ts";
import { readOcrStatement } from "../src/engine/ocr/read.ts";
import { renderPage } from "../src/engine/ocr/pdfium-render.ts";
import { OcrPageTimeout, OcrUnavailable, recognizeWords, startTesseract } from "../src/engine/ocr/tesseract.ts";
import { openPdfium } from "../src/engine/pdf/pdfium/document.ts";
import { responseJson } from "../src/engine/response-json.ts";
import { AppError, internalError, scannedDocument } from "../src/errors.ts";
import type { OcrAnswer, OcrOutputs, OcrSettings, OcrTask } from "../src/jobs/ocr-tasks.ts";

const { idleMs = 60_000 } = (workerData as { idleMs?: number } | undefined) ?? {};

let tesseract: Promise<Tesseract> | undefined;
let idle: ReturnType<typeof setTimeout> | undefined;

function dropTesseract(): void {
  const t = tesseract;
  tesseract = undefined;
  t?.then((w) => w.terminate()).catch(() => {});
}

async function readPage(task: Extract<OcrTask, { op: "ocr-page" }>): Promise<OcrOutputs["ocr-page"]> {
  const { settings } = task;
  const doc = await openPdfium(new Uint8Array(task.bytes), task.password);
  let raster;
  try {
    raster = renderPage(doc, task.page, settings.dpi);
  } finally {
    doc.close();
  }
  const words = await recognize(raster.pgm, settings);
  const slope = skewSlope(words, raster.widthPx);
  return {
    number: task.page,
    words: deskewWords(words, slope, raster.widthPx, raster.heightPx),
    dpi: raster.dpi,
    widthPt: raster.widthPt,
    heightPt: raster.heightPt,
    skewDegrees: (Math.atan(slope) * 180) / Math.PI,
  };
}

async function recognize(pgm: Uint8Array, settings: OcrSettings) {
  tesseract ??= startTesseract(settings.dpi, settings.loadTimeoutMs);
  let worker: Tesseract;
  try {
    worker = await tesseract;
  } catch (e) {
    tesseract = undefined;
    throw e;
  }
  try {
    return await recognizeWords(worker, pgm, settings.pageTimeoutMs);
  } catch (e) {
    // A worker stuck on a page (or broken by it) is not trusted with the next one.
    dropTesseract();
    throw e;
  }
}

/** Which pages are scans, and the text of the others (the same per-page decision as the text path's). */
function plan(task: Extract<OcrTask, { op: "ocr-plan" }>): Promise<OcrOutputs["ocr-plan"]> {
  return planScan(new Uint8Array(task.bytes), { password: task.password, bank: task.bank });
}

function assemble(task: Extract<OcrTask, { op: "ocr-assemble" }>): OcrOutputs["ocr-assemble"] {
  const response = readOcrStatement(task.pages, {
    producer: task.producer,
    bank: task.bank,
    pageCount: task.pageCount,
    textPages: task.textPages,
    minConfidence: task.minConfidence,
    minChainShare: task.minChainShare,
  });
  return task.csv ? { json: responseJson(response), csv: toCsv(response) } : { json: responseJson(response) };
}

async function run(task: OcrTask): Promise<OcrOutputs[keyof OcrOutputs]> {
  switch (task.op) {
    case "ocr-ping":
      return { threadId };
    case "ocr-plan":
      return plan(task);
    case "ocr-page":
      return readPage(task);
    case "ocr-assemble":
      return assemble(task);
  }
}

export default async function handle(task: OcrTask): Promise<OcrAnswer> {
  clearTimeout(idle);
  try {
    return { ok: true, value: await run(task) };
  } catch (e) {
    if (e instanceof OcrUnavailable || e instanceof OcrPageTimeout) return { ok: false, error: scannedDocument(`The PDF has no usable text layer and OCR could not read it: ${e.message}`).toJSON() };
    const error = e instanceof AppError ? e : internalError(e);
    if (!(e instanceof AppError)) console.error("ocr worker:", e instanceof Error ? (e.stack ?? e.message) : e);
    return { ok: false, error: error.toJSON() };
  } finally {
    if (tesseract) idle = setTimeout(dropTesseract, idleMs);
  }
}
