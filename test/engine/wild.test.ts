/**
 * The wild corpus (fixtures/wild): statements from producers and layouts the engine was not tuned
 * on, each shaped after a failure class seen on real bank-app exports. Parsed in the engine here;
 * test/http/wild.test.ts posts the same files over HTTP.
 */
import { describe, expect, test } from "bun:test";
import { parseStatement } from "../../src/engine/index.ts";
import { wildDocuments, wildDifferences } from "../../fixtures/wild/index.ts";

const docs = wildDocuments();

describe("the wild corpus parses to its expected JSON", () => {
  for (const doc of docs) {
    test(doc.name, async () => {
      const actual = (await parseStatement(doc.bytes(), {})) as unknown as Record<string, unknown>;
      expect(wildDifferences(doc.expected(), actual)).toEqual([]);
    });
  }
});
