import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { pdfCrypt } from "../../src/engine/guards/pdf-crypt.ts";
import { type ScanOperand, scanContent } from "../../src/engine/integrity/content-scan.ts";
import { indexObjects } from "../../src/engine/integrity/objects.ts";
import { rawPages } from "../../src/engine/integrity/page-tree.ts";
import { type Operand, parseContent } from "../../src/engine/redact/content-lexer.ts";

const ROOT = new URL("../../fixtures/", import.meta.url).pathname;

function pdfs(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? pdfs(path) : name.endsWith(".pdf") ? [path] : [];
    });
}

/** Every page content stream and form XObject stream of the corpus's unencrypted PDFs. */
function contentStreams(): { name: string; data: Uint8Array }[] {
  const out: { name: string; data: Uint8Array }[] = [];
  for (const file of pdfs(ROOT)) {
    const bytes = new Uint8Array(readFileSync(file));
    const crypt = pdfCrypt(bytes);
    if (crypt.kind !== "none") continue;
    const index = indexObjects(bytes, crypt);
    for (const page of rawPages(index, 100)) {
      for (const num of [...page.contents, ...page.resources.xobjects.values()]) {
        const data = index.streamData(num);
        if (data && data.length < 2_000_000) out.push({ name: `${file.slice(ROOT.length)} obj ${num}`, data });
      }
    }
  }
  return out;
}

/** The lexer's operand as the covered-text check sees it. */
function seen(o: Operand): ScanOperand {
  switch (o.kind) {
    case "number":
      return { kind: "number", value: o.value };
    case "string":
      return { kind: "string", length: o.bytes.length };
    case "name":
      return { kind: "name", value: o.value };
    case "array":
      return { kind: "array", items: o.items.map(seen) };
    default:
      return { kind: "other" };
  }
}

const viaLexer = (data: Uint8Array): [string, ScanOperand[]][] => parseContent(data).map((op) => [op.operator, op.operands.map(seen)]);
function viaScan(data: Uint8Array) {
  const ops: [string, ScanOperand[]][] = [];
  scanContent(data, (operator, operands) => ops.push([operator, operands]));
  return ops;
}

/** A small deterministic generator, so a failure names a reproducible mangling. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

/** Bytes that change how a content stream tokenises: delimiters, escapes, digits, signs, points, inline-image markers. */
const TRICKY = Buffer.from("()<>[]{}/%\\#+-.0123456789 \n\rEIDBI", "latin1");

function mangle(data: Uint8Array, seed: number): Uint8Array {
  const next = random(seed);
  const out = Uint8Array.from(data);
  for (let k = 0; k < 1 + Math.floor(next() * 8); k++) out[Math.floor(next() * out.length)] = TRICKY[Math.floor(next() * TRICKY.length)]!;
  return out.subarray(0, Math.max(1, Math.floor(out.length * (0.5 + next() / 2))));
}

describe("scanContent reads content streams as the redaction's lexer does", () => {
  const streams = contentStreams();

  test("the corpus has content streams to compare", () => {
    expect(streams.length).toBeGreaterThan(150);
  });

  // Compared as JSON text (a name first, so a failure says which stream): much faster than a deep equal.
  const same = (name: string, data: Uint8Array) => expect(`${name}: ${JSON.stringify(viaScan(data))}`).toBe(`${name}: ${JSON.stringify(viaLexer(data))}`);

  test("every corpus content stream: the same operations and operands", () => {
    for (const s of streams) same(s.name, s.data);
  }, 60_000);

  test("mangled copies (delimiters, escapes, signs and points written over, the end cut): still the same", () => {
    let k = 0;
    for (const s of streams) for (let seed = 0; seed < 2; seed++, k++) same(`${s.name} mangled ${k}`, mangle(s.data, k));
  }, 60_000);

  test("hand-made edge cases: octal and line-continuation escapes, odd hex, nested and unbalanced brackets, malformed numbers, inline images", () => {
    const cases = [
      "BT (a\\101\\7b\\\r\nc\\\nd) Tj ET",
      "[(x) 12 (yz) <414> <41 42 4>] TJ",
      "0.-5 --1 +.5 -.3 1.2.3 4- Td",
      "<< /A [1 2 << /B (x) >> ] >> BDC ] >> ) } { Tf",
      "q 1 0 0 1 0 0 cm BI /W 2 /H 1 ID \x00\x01EI Q /Im#41 Do",
      "[ 1 Tj ( unterminated",
      "true false null re",
      "% only a comment",
    ];
    for (const c of cases) {
      const data = new Uint8Array(Buffer.from(c, "latin1"));
      expect({ c, ops: viaScan(data) }).toEqual({ c, ops: viaLexer(data) });
    }
  });
});
