/**
 * The producer corpus: statements printed by real tools (Chromium, wkhtmltopdf, LibreOffice Writer
 * and Calc, groff) in layouts the engine's author never saw. Each must parse to its expected.json,
 * which the generator computed from its own data model (test/engine/producers/model.ts).
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { differences } from "../../fixtures/compare.ts";
import { parseStatement } from "../../src/engine/index.ts";
import { type Expected, expectedJson, expectedOf, makeStatement } from "./producers/model.ts";
import { SPECS } from "./producers/specs.ts";

const DIR = join(import.meta.dir, "producers");

describe("statements from real-world producers parse to their expected JSON", () => {
  for (const spec of SPECS) {
    test(`${spec.name} (${spec.producer})`, async () => {
      const bytes = new Uint8Array(readFileSync(join(DIR, spec.name, spec.file)));
      const expected = JSON.parse(readFileSync(join(DIR, spec.name, "expected.json"), "utf8")) as Expected;
      const actual = await parseStatement(bytes, {});
      expect(differences(expected, actual)).toEqual([]);
      expect(JSON.stringify(actual)).not.toContain(makeStatement(spec).accountNumber);
    });
  }
});

describe("the producer corpus on disk", () => {
  test("every expected.json equals what the model builds now", () => {
    const stale = SPECS.filter((s) => readFileSync(join(DIR, s.name, "expected.json"), "utf8") !== expectedJson(expectedOf(makeStatement(s)))).map((s) => s.name);
    // Fix: run `npx bun test/engine/producers/generate.ts` and commit the result.
    expect(stale).toEqual([]);
  });

  test("every spec has its file, no stray folders, at least 15 documents from 3+ producers", () => {
    expect(SPECS.filter((s) => !existsSync(join(DIR, s.name, s.file))).map((s) => s.name)).toEqual([]);
    const folders = readdirSync(DIR).filter((f) => statSync(join(DIR, f)).isDirectory());
    expect(folders.sort()).toEqual(SPECS.map((s) => s.name).sort());
    expect(SPECS.length).toBeGreaterThanOrEqual(15);
    expect(new Set(SPECS.map((s) => s.producer)).size).toBeGreaterThanOrEqual(3);
  });
});
