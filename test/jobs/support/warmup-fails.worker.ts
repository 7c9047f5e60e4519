/**
 * The real parse worker with its warm-up made to fail: pdf-lib's PDFDocument.create, which only
 * the warm-up document's generator calls in a parse worker, throws in this thread (patched before
 * the worker module is loaded, so nothing in it runs unpatched).
 */
import { PDFDocument } from "pdf-lib";

PDFDocument.create = () => Promise.reject(new Error("warm-up made to fail (test)"));
const { default: handle } = await import("../../../workers/parse.worker.ts");
export default handle;
