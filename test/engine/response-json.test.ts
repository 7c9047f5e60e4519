import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseStatement } from "../../src/engine/index.ts";
import { responseBytes, responseJson } from "../../src/engine/response-json.ts";
import type { ParseResponse } from "../../src/engine/types.ts";

const utf8 = (text: string) => new TextEncoder().encode(text);
const SAMPLES = join(import.meta.dir, "../../fixtures/real");
const PRODUCERS = join(import.meta.dir, "producers");

describe("responseJson", () => {
  test("is JSON.stringify byte for byte on every producer fixture and real sample", async () => {
    const files = [
      ...readdirSync(PRODUCERS, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .flatMap((d) => readdirSync(join(PRODUCERS, d.name)).filter((f) => f.startsWith("statement.")).map((f) => join(PRODUCERS, d.name, f))),
      ...["firstbank.pdf", "opay.pdf", "opay.xlsx", "palmpay.pdf", "zenith.pdf"].map((f) => join(SAMPLES, f)),
    ];
    expect(files.length).toBeGreaterThan(35);
    let multi = 0;
    for (const file of files) {
      const r = await parseStatement(new Uint8Array(readFileSync(file)), {});
      if (r.accounts.length > 1) multi++;
      expect(r.accounts[0]!.transactions).toBe(r.transactions);
      expect(responseJson(r)).toBe(JSON.stringify(r));
      expect(responseBytes(r)).toEqual(utf8(JSON.stringify(r)));
    }
    // Multi-section statements (opay) are among them: each section's rows written once each.
    expect(multi).toBeGreaterThan(0);
  }, 120_000);

  test("follows JSON.stringify where the shape is not the engine's: other arrays, fields left out, toJSON", () => {
    const row = { date: "2024-01-02T00:00:00+01:00", narration: "A \"quoted\" \u2028 line", debit: "1.00", credit: "0.00", balance: "9.00", reference: "", currency: "NGN" };
    const section = { metadata: { bank: "unknown" }, transactions: [row], extra: undefined, when: new Date(0) };
    const r = { format_version: "1", ...section, transactions: [row, row], accounts: [section, { ...section, transactions: [] }, undefined], integrity: undefined, fn: () => 1 };
    const response = r as unknown as ParseResponse;
    expect(responseJson(response)).toBe(JSON.stringify(response));
    expect(responseBytes(response)).toEqual(utf8(JSON.stringify(response)));
  });
});

describe("responseBytes", () => {
  const row = (narration: string) => ({ date: "2024-01-02T00:00:00+01:00", narration, debit: "1.00", credit: "0.00", balance: "9.00", reference: "", currency: "NGN" });
  const first = [row("ÀDÁ ₦ 日本 😀"), row("SMS \u0000 not a marker")];
  const second = [row("second section")];
  const response = { format_version: "1", metadata: { bank: "unknown", account_holder: "ỌBỊ \u0000" }, transactions: first, accounts: [{ transactions: first }, { transactions: second }] } as unknown as ParseResponse;

  test("the UTF-8 of JSON.stringify, text beyond Latin-1 and an escaped NUL in the data included", () => {
    expect(responseBytes(response)).toEqual(utf8(JSON.stringify(response)));
  });

  test("rows a writer gives as bytes or text go where each array is, the shared first array at both places, into the buffer it allocates", () => {
    const calls: number[] = [];
    const out = responseBytes(response, {
      rows: (rows, section) => {
        calls.push(section);
        const json = JSON.stringify(rows.map((r) => ({ ...r, section })));
        return section === 0 ? utf8(json) : json;
      },
      allocate: (size) => new Uint8Array(new SharedArrayBuffer(size)),
    });
    expect(out.buffer).toBeInstanceOf(SharedArrayBuffer);
    // The first section's rows are written once, for the top level and accounts[0].
    expect(calls).toEqual([0, 1]);
    const withSections = { ...response, transactions: first.map((r) => ({ ...r, section: 0 })), accounts: [{ transactions: first.map((r) => ({ ...r, section: 0 })) }, { transactions: second.map((r) => ({ ...r, section: 1 })) }] };
    expect(new TextDecoder().decode(out)).toBe(JSON.stringify(withSections));
  });
});
