/**
 * fee_of: a charge, VAT, stamp duty or EMTL row tied to the row it was taken for, by reference,
 * narration or time, and the amount rule of its kind; and left unlinked when nothing ties it.
 */
import { describe, expect, test } from "bun:test";
import { analyse } from "../../src/engine/insights/index.ts";
import { type RowSpec, statement } from "./statement.ts";

const feeOf = (specs: RowSpec[]) => analyse(statement(specs)).rows.map((r) => r.enrichment.fee_of);
const confidence = (specs: RowSpec[], i: number) => analyse(statement(specs)).rows[i]?.enrichment.confidence.fee_of;

describe("fee_of", () => {
  test("a transfer's commission names the transfer (ALAT: COMM + the transfer's narration), then its VAT (7.5% of the commission)", () => {
    const specs: RowSpec[] = [
      ["2025-03-01", "Transfer from BOLA ADE", "", "40000.00"],
      ["2025-03-02", "ALAT NIP TRANSFER TO GTBank-MERCY IBEKWE FROM ADAEZE OKAFOR", "9400.00", ""],
      ["2025-03-02", "COMM ALAT NIP TRANSFER TO GTBank-MERCY IBEKWE FROM ADAEZE OKAFOR", "25.00", ""],
      ["2025-03-02", "VAT ON COMMISSION", "1.88", ""],
    ];
    expect(feeOf(specs)).toEqual([null, null, 1, 2]);
    expect(confidence(specs, 2)).toBeGreaterThanOrEqual(0.95);
  });

  test("same reference: a charge printed away from its transfer still finds it", () => {
    const specs: RowSpec[] = [
      ["2025-03-02", "NIP TRANSFER TO ADA OBI ZENITH BANK", "60000.00", "", "FT2506100001"],
      ["2025-03-02", "POS PURCHASE @ SPAR", "3000.00", "", "POS1"],
      ["2025-03-02", "NIP TRANSFER CHARGE", "50.00", "", "FT2506100001"],
    ];
    expect(feeOf(specs)).toEqual([null, null, 0]);
  });

  test("EMTL and stamp duty: N50 on a receipt of N10,000 or more, by time or adjacency; not on a smaller receipt", () => {
    const specs: RowSpec[] = [
      ["2025-03-03 09:15:02", "Transfer from CHIDI OBI | UBA | 0123456789", "", "25000.00"],
      ["2025-03-03 11:40:00", "POS PURCHASE @ SPAR", "3000.00", ""],
      ["2025-03-03 09:15:02", "Electronic Money Transfer Levy", "50.00", ""],
      ["2025-03-04", "Transfer from TUNDE BAKARE", "", "12000.00"],
      ["2025-03-04", "STAMP DUTY", "50.00", ""],
      ["2025-03-05", "Transfer from SMALL SUM", "", "9999.99"],
      ["2025-03-05", "Electronic Money Transfer Levy", "50.00", ""],
    ];
    expect(feeOf(specs)).toEqual([null, null, 0, null, 3, null, null]);
    expect(confidence(specs, 2)).toBe(0.85);
  });

  test("a transfer fee by its band (N10 up to N5,000, N25 up to N50,000, N50 above), with or without its VAT on the row", () => {
    const specs: RowSpec[] = [
      ["2025-03-06", "NIP TRANSFER TO ADA OBI", "4000.00", ""],
      ["2025-03-06", "NIP TRANSFER COMMISSION", "10.00", ""],
      ["2025-03-06", "NIP TRANSFER TO BOLA ADE", "20000.00", ""],
      ["2025-03-06", "NIP TRANSFER COMMISSION + VAT", "26.88", ""],
      ["2025-03-06", "NIP TRANSFER TO CHIDI OBI", "20000.00", ""],
      ["2025-03-06", "NIP TRANSFER COMMISSION", "50.00", ""],
    ];
    // The last commission is not the band's fee of the transfer before it (N25), and nothing names it.
    expect(feeOf(specs)).toEqual([null, 0, null, 2, null, null]);
  });

  test("VAT that is not 7.5% of the charge beside it is not linked by amount", () => {
    const specs: RowSpec[] = [
      ["2025-03-07", "SMS ALERT CHARGES", "40.00", ""],
      ["2025-03-07", "VAT", "5.00", ""],
    ];
    expect(feeOf(specs)).toEqual([null, null]);
    expect(feeOf([specs[0]!, ["2025-03-07", "VAT", "3.00", ""]])).toEqual([null, 0]);
  });

  test("a fee is never the fee of another section's row", () => {
    const r = statement([["2025-03-08", "NIP TRANSFER TO ADA OBI", "4000.00", "", "FT1"]]);
    const second = statement([["2025-03-08", "NIP TRANSFER COMMISSION", "10.00", "", "FT1"]]);
    r.accounts.push(second.accounts[0]!);
    const { rows } = analyse(r);
    expect(rows.map((x) => x.enrichment.fee_of)).toEqual([null, null]);
  });

  test("a reference extended after a separator, or the same stem with another posting counter, ties a fee to its row", () => {
    const specs: RowSpec[] = [
      ["2025-09-01 06:21:09", "TRANSFER TO EMEKA STORES Zenith Bank", "2010.00", "", "XFR|7HQ2MLP|4408812233_DR_0"],
      ["2025-09-01 09:00:00", "Transfer from BISI ALABI", "", "67000.00", "XFR|9KD3PQA|5501928374_CR_0"],
      ["2025-09-01 12:00:00", "POS PURCHASE @ SPAR", "3000.00", "", "POS|551|2025090112"],
      ["2025-09-01 12:30:00", "POS PURCHASE @ SHOPRITE", "4000.00", "", "POS|552|2025090112"],
      // Posted in a batch hours later, neither beside its row nor at its time.
      ["2025-09-01 22:02:59", "Electronic Money Transfer Levy", "50.00", "", "XFR|9KD3PQA|5501928374_CR_0_EMTL_DC_0"],
      ["2025-09-01 22:03:04", "Value Added Tax", "0.75", "", "XFR|7HQ2MLP|4408812233_DR_1"],
    ];
    // The VAT's fee is folded into the transfer (no charge row): it is tied to the transfer itself.
    expect(feeOf(specs)).toEqual([null, null, null, null, 1, 0]);
    // A short reference is no posting's id: "R_0" and "R_1" are not one stem.
    expect(feeOf([["2025-09-02", "TRANSFER TO ADA OBI", "2000.00", "", "R_0"], ["2025-09-02", "POS PURCHASE", "900.00", "", "P"], ["2025-09-03", "Value Added Tax", "0.75", "", "R_1"]])).toEqual([null, null, null]);
  });

  test("VAT takes a charge row that links over a movement that shares its reference", () => {
    const specs: RowSpec[] = [
      ["2025-03-02", "NIP TRANSFER TO ADA OBI ZENITH BANK", "60000.00", "", "FT2506100001XYZ_0"],
      ["2025-03-02", "NIP TRANSFER COMMISSION", "50.00", "", "FT2506100001XYZ_1"],
      ["2025-03-02", "VAT ON COMMISSION", "3.75", "", "FT2506100001XYZ_2"],
    ];
    expect(feeOf(specs)).toEqual([null, 0, 1]);
  });
});
