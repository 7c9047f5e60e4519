/**
 * The real parse worker with its warm-up made to fail: pdf-lib's PDFDocument.create, which only
 * the warm-up document's generator calls in a parse worker, throws in this thread. Patched before
 * the worker module loads, since the warm-up starts with the thread.
 */
import { PDFDocument } from "pdf-lib";

PDFDocument.create = () => Promise.reject(new Error("warm-up made to fail (test)"));
const { default: handle } = await import("../../../workers/parse.worker.ts");
export default handle;
