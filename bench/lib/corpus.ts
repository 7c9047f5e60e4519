/**
 * The batch bench's documents (bench/batch.ts): a fixed, mixed selection of the corpus's text
 * PDFs, the way a user's batch of ordinary statements looks (mostly a few pages, some longer).
 *   - every PDF under fixtures/ with more than one page;
 *   - every 4th one-page PDF, in path order;
 *   - one 30-page bench statement (bench/generate.ts): the corpus's longest is 43 pages and the
 *     next 12, so this fills the gap;
 * leaving out fixtures/scans (image-only: read by OCR, not the text path) and
 * fixtures/real/encrypted.pdf (needs its password).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { largeStatement, largeStatementPath } from "./loopback.ts";
import { mutoolPages } from "./mutool.ts";

const ROOT = join(import.meta.dir, "..", "..");
const FIXTURES = join(ROOT, "fixtures");
const EXCLUDED = [/^fixtures\/scans\//, /^fixtures\/real\/encrypted\.pdf$/];
const ONE_PAGE_EVERY = 4;
const GENERATED_PAGES = 30;

export interface BatchFile {
  /** Path mutool reads (relative to the repository for the corpus, absolute for the generated one). */
  path: string;
  name: string;
  pages: number;
  bytes: Uint8Array;
}

function pdfsUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".pdf"))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)))
    .sort();
}

export async function batchFiles(): Promise<BatchFile[]> {
  const corpus = pdfsUnder(FIXTURES)
    .filter((p) => !EXCLUDED.some((x) => x.test(p)))
    .map((path) => ({ path: join(ROOT, path), name: path, pages: mutoolPages(join(ROOT, path)) ?? 0 }))
    .filter((f) => f.pages > 0);
  let onePagers = 0;
  const chosen = corpus.filter((f) => f.pages > 1 || onePagers++ % ONE_PAGE_EVERY === 0);
  await largeStatement(GENERATED_PAGES);
  const generated = largeStatementPath(GENERATED_PAGES);
  return [...chosen, { path: generated, name: `bench-${GENERATED_PAGES}-pages.pdf`, pages: GENERATED_PAGES }].map((f) => ({ ...f, bytes: new Uint8Array(readFileSync(f.path)) }));
}
