/** pdfjs-dist ships no types for its worker bundle; this is the one export the engine uses. */
declare module "pdfjs-dist/legacy/build/pdf.worker.mjs" {
  export const WorkerMessageHandler: {
    /** Serves pdf.js's worker side of the protocol on `port` (what a real worker thread would run). */
    initializeFromPort(port: unknown): void;
  };
}
