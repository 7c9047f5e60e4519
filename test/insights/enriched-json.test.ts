/**
 * The enriched rows' JSON made from the kept rows' bytes (src/engine/insights/enriched-json.ts) is
 * byte for byte the UTF-8 of JSON.stringify of the rows with their enrichment, whatever the narrations hold
 * (the row separator `},{"`, `}]`, quotes, backslashes, non-Latin text), and text that is not a
 * flat array of that many rows is refused rather than cut in the wrong places.
 */
import { describe, expect, test } from "bun:test";
import { enrichedRows, enrichmentJsonWriter } from "../../src/engine/insights/enriched-json.ts";
import type { Enrichment } from "../../src/engine/insights/types.ts";
import type { Transaction } from "../../src/engine/types.ts";

const row = (narration: string, extra: Partial<Transaction> = {}): Transaction => ({
  date: "2025-01-02T00:00:00+01:00",
  narration,
  debit: "0.00",
  credit: "5000.00",
  balance: "105000.00",
  reference: "",
  currency: "NGN",
  ...extra,
});

const plainEnrichment = (category: Enrichment["category"], c = 0.9): Enrichment => ({
  category,
  channel: "nip",
  counterparty: null,
  session_id: null,
  fee_of: null,
  confidence: { category: c, channel: 0.8, counterparty: null, session_id: null, fee_of: null },
});

const enrichments: Enrichment[] = [
  plainEnrichment("transfer_in"),
  { ...plainEnrichment("transfer_out"), counterparty: { name: "ADA OBI", bank: "Zenith Bank" }, confidence: { category: 0.85, channel: 0.9, counterparty: 0.8, session_id: null, fee_of: null } },
  { ...plainEnrichment("bank_charge"), fee_of: 1, confidence: { category: 0.9, channel: 0.9, counterparty: null, session_id: null, fee_of: 0.6 } },
  plainEnrichment("transfer_in"),
  plainEnrichment("transfer_in", 0.5),
  { ...plainEnrichment("transfer_in"), session_id: "000013250107093011123456789012", confidence: { category: 0.9, channel: 0.8, counterparty: null, session_id: 0.95, fee_of: null } },
];

const rows: Transaction[] = [
  row("Transfer from ADA OBI | UBA | 1"),
  row('NIP TRF "QUOTED" TO },{"date":"x"} AND }] AND \\ BACKSLASH'),
  row("COMMISSION },{"),
  row("NAÏRA ₦ ÀDÉ 日本 \u2028 line"),
  row("", { ocr_confidence: 91.5 }),
  row("LAST ROW ENDS WITH }]"),
];

const expected = (list: Transaction[], es: Enrichment[]) => JSON.stringify(list.map((t, i) => ({ ...t, enrichment: es[i] })));
const bytes = (text: string) => new TextEncoder().encode(text);
const text = (b: Uint8Array | undefined) => (b === undefined ? undefined : new TextDecoder().decode(b));
/** enrichedRows from and to text, written into a larger buffer at an offset (as responseBytes writes it), the bytes around it left as they were. */
function enrich(json: string, count: number, e: (i: number) => string | Uint8Array): string | undefined {
  const piece = enrichedRows(bytes(json), count, (i) => {
    const x = e(i);
    return typeof x === "string" ? bytes(x) : x;
  });
  if (!piece) return undefined;
  const out = new Uint8Array(piece.byteLength + 6).fill(0x2a);
  piece.writeInto(out, 3);
  expect([...out.subarray(0, 3), ...out.subarray(out.length - 3)]).toEqual([0x2a, 0x2a, 0x2a, 0x2a, 0x2a, 0x2a]);
  return text(out.subarray(3, out.length - 3));
}

describe("enrichedRows", () => {
  test("byte for byte JSON.stringify of the enriched rows, whatever the narrations hold", () => {
    const write = enrichmentJsonWriter();
    const out = enrich(JSON.stringify(rows), rows.length, (i) => write(enrichments[i] as Enrichment));
    expect(out).toBe(expected(rows, enrichments));
    expect(JSON.parse(out as string)[1].narration).toBe(rows[1]?.narration);
  });

  test("one row, and no rows", () => {
    const one = [rows[1] as Transaction];
    expect(enrich(JSON.stringify(one), 1, () => JSON.stringify(enrichments[1]))).toBe(expected(one, [enrichments[1] as Enrichment]));
    expect(enrich("[]", 0, () => "{}")).toBe("[]");
  });

  test("refused: a row count that is not the text's, rows that are not flat, another layout", () => {
    const json = JSON.stringify(rows);
    const e = () => "{}";
    expect(enrich(json, rows.length - 1, e)).toBeUndefined();
    expect(enrich(json, rows.length + 1, e)).toBeUndefined();
    expect(enrich("[]", 1, e)).toBeUndefined();
    expect(enrich(json, 0, e)).toBeUndefined();
    // A nested array of objects holds `},{"` too: cut there, the count no longer ends at the array's end.
    expect(enrich(JSON.stringify([{ a: [{ b: 1 }, { c: 2 }] }, { d: "x" }]), 2, e)).toBeUndefined();
    expect(enrich(JSON.stringify([{ a: { b: 1 } }]), 1, e)).toBeUndefined();
    expect(enrich(JSON.stringify(rows, null, 2), rows.length, e)).toBeUndefined();
  });
});

describe("enrichmentJsonWriter", () => {
  test("each enrichment's own JSON; rows with no party, session or fee share one text per category, channel and confidences", () => {
    const write = enrichmentJsonWriter();
    for (const en of enrichments) expect(text(write(en))).toBe(JSON.stringify(en));
    // Equal enrichments of two rows (distinct objects) come back as the one text written first.
    const a = write(plainEnrichment("salary"));
    expect(write(plainEnrichment("salary"))).toBe(a);
    expect(text(write(plainEnrichment("salary", 0.7)))).toBe(JSON.stringify(plainEnrichment("salary", 0.7)));
    expect(text(write({ ...plainEnrichment("salary"), channel: "ussd" }))).toBe(JSON.stringify({ ...plainEnrichment("salary"), channel: "ussd" }));
  });
});
