/** The redaction budget on its own (src/engine/redact/budget.ts): items and the worker-heap net. */
import { describe, expect, test } from "bun:test";
import { ContentBudget } from "../../src/engine/redact/budget.ts";
import { contentItems } from "../../src/engine/redact/pdf-preflight.ts";
import { MAX_TEXT_CHARS } from "../../src/engine/text-cap.ts";

const enc = (s: string) => new TextEncoder().encode(s);
const errorClass = (f: () => void) => {
  try {
    f();
  } catch (e) {
    return (e as { errorClass?: string }).errorClass;
  }
  return undefined;
};

describe("ContentBudget", () => {
  test("spending past the items refuses with payload_too_large", () => {
    const b = new ContentBudget({ items: 10, heapUsed: () => 0 });
    b.spend(10);
    expect(errorClass(() => b.spend())).toBe("payload_too_large");
  });

  test("a heap above the cap refuses at the next check, whatever the items left", () => {
    let heap = 0;
    const b = new ContentBudget({ items: 1_000_000, heapCap: 100, heapUsed: () => heap });
    b.spend(60_000);
    heap = 101;
    expect(errorClass(() => b.spend(60_000))).toBe("payload_too_large");
  });
});

describe("contentItems (the count before the document is read)", () => {
  test("one per operator and per string byte; names, numbers, arrays and inline image data are not operators", () => {
    expect(contentItems(enc("BT /F1 9 Tf 10 20 Td (abc) Tj [(de) -20 (f)] TJ ET"))).toBe(6 + 6);
    expect(contentItems(enc("q BI /W 1 /H 1 ID \x00Tj\xffTJ EI Q"))).toBe(4);
    expect(contentItems(enc("<414243> Tj % comment Tj\n"))).toBe(3 + 1);
  });

  test("a string counts at most one glyph past the interpreter's per-operator limit", () => {
    expect(contentItems(enc(`(${"a".repeat(100_000)}) Tj`))).toBe(MAX_TEXT_CHARS + 1 + 1);
  });
});
