/**
 * tesseract.js, offline: the model is read from the @tesseract.js-data/eng package (its
 * 4.0.0_best_int folder, which reads amounts better than the fast models), nothing is cached on
 * disk (`cacheMethod: "none"`: the default cache reads and writes the working directory) and no
 * URL is ever fetched. A failed model load never settles createWorker (it only calls
 * errorHandler), so the file is checked first and the load is raced against a timeout.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { createWorker, PSM, type Worker } from "tesseract.js";
import type { OcrWord } from "./words.ts";
import { wordsFromTsv } from "./words.ts";

const LANG = "eng";
const MODEL_DIR = "4.0.0_best_int";

/** Folder holding eng.traineddata.gz, inside node_modules. */
export function modelDir(): string {
  return join(dirname(createRequire(import.meta.url).resolve("@tesseract.js-data/eng/package.json")), MODEL_DIR);
}

export class OcrUnavailable extends Error {}

/** A worker ready to read English at `dpi`, or OcrUnavailable (model missing, load failed or too slow). */
export async function startTesseract(dpi: number, loadTimeoutMs: number): Promise<Worker> {
  const langPath = modelDir();
  if (!existsSync(join(langPath, `${LANG}.traineddata.gz`))) throw new OcrUnavailable(`The OCR model is missing from ${langPath}`);
  let failed: (e: Error) => void = () => {};
  const failure = new Promise<never>((_, reject) => (failed = reject));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new OcrUnavailable(`The OCR engine did not load within ${loadTimeoutMs} ms`)), loadTimeoutMs);
  });
  const starting = createWorker(LANG, 1, {
    langPath,
    cacheMethod: "none",
    gzip: true,
    errorHandler: (e: unknown) => failed(new OcrUnavailable(`The OCR engine failed to load: ${String(e)}`)),
  });
  try {
    const worker = await Promise.race([starting, failure, timeout]);
    // Single uniform block: statement pages are one table; it keeps each row's words on one line.
    await worker.setParameters({ tessedit_pageseg_mode: PSM.SINGLE_BLOCK, user_defined_dpi: String(dpi) });
    return worker;
  } catch (e) {
    // A load that settles later is terminated then (its thread and ~75 MB of wasm and model).
    starting.then((w) => w.terminate()).catch(() => {});
    throw e instanceof OcrUnavailable ? e : new OcrUnavailable(`The OCR engine failed to load: ${String(e)}`);
  } finally {
    clearTimeout(timer);
  }
}

export class OcrPageTimeout extends Error {}

/** The words of one grey PGM page; rejects with OcrPageTimeout after `timeoutMs` (the caller must then terminate the worker). */
export async function recognizeWords(worker: Worker, pgm: Uint8Array, timeoutMs: number): Promise<OcrWord[]> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new OcrPageTimeout(`OCR of a page took longer than ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const { data } = await Promise.race([worker.recognize(Buffer.from(pgm.buffer, pgm.byteOffset, pgm.byteLength), {}, { text: false, tsv: true }), timeout]);
    return wordsFromTsv(data.tsv ?? "");
  } finally {
    clearTimeout(timer);
  }
}
