/**
 * Class 6 of issue 24: the bank from a logo-only letterhead. The text still shows a heading set, a
 * label, a title, a producer or docProps, a web address or a USSD short code. A heading set names a
 * bank only with its own (distinctive) wording; headings every bank prints never do, so a lookalike
 * table stays `unknown`: a wrong id is worse than none.
 */
import { describe, expect, test } from "bun:test";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { assembleStatement, parseStatement } from "../../src/engine/index.ts";
import { detectBank, isDistinctiveHeading } from "../../src/engine/banks/detect.ts";
import { page, pdfDoc, sheetDoc } from "./layout-helpers.ts";

type Piece = [number, string] | { r: number; t: string };
type Row = [number, ...Piece[]];

/** A one-page statement under `heading`: three rows that chain, written by `row(i)`. */
function statement(top: Row[], heading: Row, rows: Row[]) {
  return assembleStatement(pdfDoc(page(1, [...top, heading, ...rows], 800)));
}

const gtHeading: Row = [100, [20, "Trans. Date"], [80, "Value Date"], [140, "Reference"], { r: 300, t: "Debits" }, { r: 370, t: "Credits" }, { r: 450, t: "Balance" }, [470, "Originating Branch"], [600, "Remarks"]];
const gtRows: Row[] = [
  [112, [20, "02-Jan-2025"], [80, "02-Jan-2025"], [140, "FT250021"], { r: 300, t: "1,000.00" }, { r: 450, t: "9,000.00" }, [470, "E-CHANNELS"], [600, "AIRTIME MTN"]],
  [124, [20, "03-Jan-2025"], [80, "03-Jan-2025"], [140, "FT250031"], { r: 370, t: "5,000.00" }, { r: 450, t: "14,000.00" }, [470, "IKEJA"], [600, "SALARY JAN"]],
  [136, [20, "04-Jan-2025"], [80, "04-Jan-2025"], [140, "FT250041"], { r: 300, t: "50.00" }, { r: 450, t: "13,950.00" }, [470, "E-CHANNELS"], [600, "SMS ALERT"]],
];
const opening: Row = [60, [20, "Opening Balance"], { r: 200, t: "10,000.00" }];

describe("a heading set names the bank only with its own wording", () => {
  test("GTBank's customer statement headings name GTBank", () => {
    expect(statement([[40, [20, "CUSTOMER STATEMENT"]], opening], gtHeading, gtRows).metadata.bank).toBe("gtbank");
  });

  test("the same table without its Originating Branch column is a lookalike: unknown", () => {
    const heading: Row = [100, [20, "Trans. Date"], [80, "Value Date"], [140, "Reference"], { r: 300, t: "Debits" }, { r: 370, t: "Credits" }, { r: 450, t: "Balance" }, [600, "Remarks"]];
    const rows = gtRows.map((r) => r.filter((p) => !(Array.isArray(p) && p[0] === 470)) as Row);
    const res = statement([[40, [20, "CUSTOMER STATEMENT"]], opening], heading, rows);
    expect(res.metadata.bank).toBe("unknown");
    // The rows are still read; only the name is withheld.
    expect(res.transactions).toHaveLength(3);
  });

  test("Stanbic IBTC: POSTED DATE | CREATE DATE | NARRATION | DEBIT | CREDIT | BALANCE", () => {
    const heading: Row = [100, [20, "POSTED DATE"], [90, "CREATE DATE"], [160, "NARRATION"], { r: 420, t: "DEBIT" }, { r: 500, t: "CREDIT" }, { r: 600, t: "BALANCE" }];
    const rows: Row[] = [
      [112, [20, "02/01/2025"], [90, "02/01/2025"], [160, "POS PURCHASE"], { r: 420, t: "1,000.00" }, { r: 600, t: "9,000.00" }],
      [124, [20, "03/01/2025"], [90, "03/01/2025"], [160, "TRANSFER IN"], { r: 500, t: "5,000.00" }, { r: 600, t: "14,000.00" }],
    ];
    expect(statement([[40, [20, "INFLOW VS OUTFLOW"]], opening], heading, rows).metadata.bank).toBe("stanbic");
    // A bank that prints "POSTED DATE | VALUE DATE | ..." (no CREATE DATE) is not Stanbic.
    const other: Row = [100, [20, "POSTED DATE"], [90, "VALUE DATE"], [160, "NARRATION"], { r: 420, t: "DEBIT" }, { r: 500, t: "CREDIT" }, { r: 600, t: "BALANCE" }];
    expect(statement([opening], other, rows).metadata.bank).toBe("unknown");
  });

  test("Union Bank: POST DATE | DESC | DOC NO. | VALUE DATE | DR | CR | BALANCE", () => {
    const heading: Row = [100, [20, "POST DATE"], [90, "DESC"], [300, "DOC NO."], [370, "VALUE DATE"], { r: 500, t: "DR" }, { r: 580, t: "CR" }, { r: 680, t: "BALANCE" }];
    const rows: Row[] = [
      [112, [20, "02-JAN-25"], [90, "ATM WITHDRAWAL"], [300, "0012"], [370, "02-JAN-25"], { r: 500, t: "1,000.00" }, { r: 680, t: "9,000.00" }],
      [124, [20, "03-JAN-25"], [90, "TRANSFER IN"], [300, "0013"], [370, "03-JAN-25"], { r: 580, t: "5,000.00" }, { r: 680, t: "14,000.00" }],
    ];
    expect(statement([opening], heading, rows).metadata.bank).toBe("union");
    // "DESCRIPTION" where Union prints "DESC": every other heading is generic, so no bank.
    const lookalike: Row = [100, [20, "POST DATE"], [90, "DESCRIPTION"], [300, "DOC NO."], [370, "VALUE DATE"], { r: 500, t: "DR" }, { r: 580, t: "CR" }, { r: 680, t: "BALANCE" }];
    expect(statement([opening], lookalike, rows).metadata.bank).toBe("unknown");
  });

  test("Moniepoint's wide headings name Moniepoint; a few of its generic ones do not", () => {
    const all = "Date Account Name Transaction Type Transaction Status Terminal ID RRN Transaction Ref Reversal Status Transaction Amount Settlement Debit Settlement Credit Balance Before Balance After Charge Beneficiary Beneficiary Institution Source Source Institution Narration";
    expect(detectBank({ text: "", headings: all, producer: "" }).profile?.id).toBe("moniepoint");
    expect(detectBank({ text: "", headings: "Date Transaction Type Transaction Ref Transaction Amount Balance Before Balance After Charge Beneficiary Narration", producer: "" }).profile).toBeNull();
  });

  test("a full stop left out of a heading still matches (Trans Date, DOC NO)", () => {
    expect(detectBank({ text: "", headings: "Trans Date Value Date Reference Debits Credits Balance Originating Branch Remarks", producer: "" }).profile?.id).toBe("gtbank");
    expect(detectBank({ text: "", headings: "POST DATE DESC DOC NO VALUE DATE DR CR BALANCE", producer: "" }).profile?.id).toBe("union");
  });

  test("which headings count as a bank's own wording", () => {
    expect(["Originating Branch", "CREATE DATE", "DESC", "Settlement Debit", "Terminal ID"].every(isDistinctiveHeading)).toBe(true);
    expect(["Trans. Date", "Value Date", "Debits", "Credits", "Balance", "Remarks", "NARRATION", "POSTED DATE"].some(isDistinctiveHeading)).toBe(false);
  });
});

describe("other zones that are not rows", () => {
  test("a label and a heading together: GTBank's Internal Reference beside Originating Branch", () => {
    expect(detectBank({ text: "Internal Reference 1234", headings: "Date Originating Branch Remarks", producer: "" }).profile?.id).toBe("gtbank");
    // Either alone names nothing.
    expect(detectBank({ text: "Internal Reference 1234", headings: "Date Remarks", producer: "" }).profile).toBeNull();
  });

  test("a USSD short code or web address in a footer", () => {
    expect(detectBank({ text: "Dial *737# for banking on the go", headings: "", producer: "" }).profile?.id).toBe("gtbank");
    expect(detectBank({ text: "www.unionbankng.com", headings: "", producer: "" }).profile?.id).toBe("union");
    // A different code ("*7370#") is not GTBank's.
    expect(detectBank({ text: "Dial *7370#", headings: "", producer: "" }).profile).toBeNull();
  });

  test("a sheet's name or document properties (carried in the producer) name the bank", () => {
    const rows = [
      ["Date", "Narration", "Debit", "Credit", "Balance"],
      ["2025-01-02", "AIRTIME", "100", "", "900"],
      ["2025-01-03", "TRANSFER IN", "", "500", "1400"],
    ];
    expect(assembleStatement({ kind: "sheet", producer: "xlsx / Guaranty Trust Bank", sheets: [{ name: "Sheet1", rows }] }).metadata.bank).toBe("gtbank");
    expect(assembleStatement({ kind: "sheet", producer: "xlsx / Statement / ADA OBI", sheets: [{ name: "ADA OBI", rows }] }).metadata.bank).toBe("unknown");
    expect(assembleStatement(sheetDoc(rows)).metadata.bank).toBe("unknown");
  });

  test("a bank named inside a row's narration never names the statement", () => {
    const res = statement([opening], gtHeading.map((p, i) => (i === 7 ? [470, "Branch Code"] : p)) as Row, [
      [112, [20, "02-Jan-2025"], [80, "02-Jan-2025"], [140, "FT250021"], { r: 300, t: "1,000.00" }, { r: 450, t: "9,000.00" }, [470, "001"], [600, "TRANSFER TO OPAY *737#"]],
      [124, [20, "03-Jan-2025"], [80, "03-Jan-2025"], [140, "FT250031"], { r: 370, t: "5,000.00" }, { r: 450, t: "14,000.00" }, [470, "002"], [600, "FROM MONIEPOINT MFB"]],
    ]);
    expect(res.metadata.bank).toBe("unknown");
  });

  test("a PDF's title in its information dictionary names the bank; without it the same pages stay unknown", async () => {
    const make = async (title: string | null) => {
      const doc = await PDFDocument.create();
      const font = await doc.embedFont(StandardFonts.Helvetica);
      const p = doc.addPage([600, 842]);
      const lines: [number, [number, string][]][] = [
        [100, [[40, "Date"], [120, "Description"], [330, "Debit"], [400, "Credit"], [480, "Balance"]]],
        [112, [[40, "2024-03-01"], [120, "TRANSFER IN"], [400, "500.00"], [480, "1,500.00"]]],
        [124, [[40, "2024-03-02"], [120, "POS PURCHASE"], [330, "200.00"], [480, "1,300.00"]]],
      ];
      for (const [y, pieces] of lines) for (const [x, t] of pieces) p.drawText(t, { x, y: 842 - y, size: 8, font });
      if (title) doc.setTitle(title);
      return doc.save();
    };
    expect((await parseStatement(await make("Kuda Statement"), {})).metadata.bank).toBe("kuda");
    expect((await parseStatement(await make(null), {})).metadata.bank).toBe("unknown");
  });
});
