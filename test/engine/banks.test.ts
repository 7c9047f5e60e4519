import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { detectBank } from "../../src/engine/banks/detect.ts";
import { type BankProfileInput, defineBankProfile } from "../../src/engine/banks/profile.ts";
import { BANK_PROFILES } from "../../src/engine/banks/profiles.ts";
import { detectionInput } from "../../src/engine/banks/zones.ts";
import { listBanks, parseStatement } from "../../src/engine/index.ts";
import { buildPdf } from "./synthetic-pdf.ts";

const valid: BankProfileInput = { id: "testbank", name: "Test Bank", markers: [["Test Bank"]] };

describe("defineBankProfile rejects invalid shapes", () => {
  const bad = (input: unknown, message: RegExp) => expect(() => defineBankProfile(input as BankProfileInput)).toThrow(message);
  test("id with capitals or spaces", () => bad({ ...valid, id: "Test Bank" }, /id must be lower-case/));
  test("empty id", () => bad({ ...valid, id: "" }, /id/));
  test("missing name", () => bad({ id: "x", markers: [["a b"]] }, /name/));
  test("no marker groups", () => bad({ ...valid, markers: [] }, /at least one marker group/));
  test("an empty marker group", () => bad({ ...valid, markers: [[]] }, /marker group cannot be empty/));
  test("a one-character marker", () => bad({ ...valid, markers: [["x"]] }, /at least 2 characters/));
  test("an unknown format", () => bad({ ...valid, formats: ["docx"] }, /formats/));
  test("an unknown quirk", () => bad({ ...valid, quirks: { guessNumbers: true } }, /quirks/));
  test("an unknown field", () => bad({ ...valid, colour: "red" }, /colour|Unrecognized/i));
  test("a heading set of fewer than four headings", () => bad({ ...valid, headings: [["Date", "Balance"]] }, /at least 4 headings/));
  test("a sort-code prefix that is not three digits", () => bad({ ...valid, sortCodes: ["58"] }, /3 digits/));
  test("a valid profile gets defaults", () => {
    expect(defineBankProfile(valid)).toEqual({ ...valid, formats: ["pdf"], headings: [], sortCodes: [], quirks: {} } as never);
  });
});

describe("bank detection", () => {
  test("every required bank has a profile with a unique id", () => {
    const ids = BANK_PROFILES.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    // The institutions of issue 14: commercial, non-interest, merchant, former, digital banks and wallets.
    const required = [
      ...["access", "citibank", "ecobank", "fidelity", "firstbank", "fcmb", "globus", "gtbank", "keystone", "optimus", "parallex", "polaris", "premiumtrust"],
      ...["providus", "signature", "stanbic", "standardchartered", "sterling", "suntrust", "titantrust", "union", "uba", "unity", "wema", "zenith", "alphamorgan"],
      ...["jaiz", "taj", "lotus", "altbank", "coronation", "fsdh", "nova", "rand", "greenwich", "fbnquest", "heritage"],
      ...["kuda", "opay", "palmpay", "moniepoint", "carbon", "fairmoney", "vfd", "rubies", "sparkle", "mintyn", "gomoney", "paga", "renmoney", "9psb", "momopsb", "lapo"],
    ];
    expect(required.length).toBe(53);
    for (const id of required) {
      expect(ids).toContain(id);
    }
  });
  test("a complete group matches, case-insensitively", () => {
    expect(detectBank("ZENITH BANK PLC\nFESTAC").profile?.id).toBe("zenith");
    expect(detectBank("www.gtbank.com").profile?.id).toBe("gtbank");
  });
  test("all markers of a group are required", () => {
    const d = detectBank("Money In (NGN) and Transaction Detail");
    expect(d.profile).toBeNull();
    // Two of PalmPay's three header markers.
    expect(d.markerCoverage).toBe(67);
  });
  test("markers are whole words: a name inside a longer word is not the bank", () => {
    expect(detectBank("MR KUDAISI OLAWALE, ALATISHE STREET").profile).toBeNull();
    expect(detectBank("Kuda Microfinance Bank").profile?.id).toBe("kuda");
    expect(detectBank("Paga").profile?.id).toBe("paga");
    expect(detectBank("Pagadian Road").profile).toBeNull();
  });
  test("a heading set decides when most of it is the table's headings in order", () => {
    const input = (headings: string) => ({ text: "STATEMENT OF ACCOUNT", headings, producer: "" });
    const first = "Trans Date Ref. Number Value Date Withdrawal(DR) Deposit(CR) Balance";
    expect(detectBank(input(first))).toMatchObject({ profile: { id: "firstbank" }, markerCoverage: 100 });
    // Five of six (one heading extracted differently) is still enough: 83.
    expect(detectBank(input("Trans Date Ref. Number Value Date Withdrawal (D R) Deposit(CR) Balance"))).toMatchObject({ profile: { id: "firstbank" }, markerCoverage: 83 });
    // The same headings in another order are another bank's table: unknown, with the share seen.
    const shuffled = detectBank(input("Balance Deposit(CR) Withdrawal(DR) Value Date Ref. Number Trans Date"));
    expect(shuffled.profile).toBeNull();
    expect(shuffled.markerCoverage).toBeLessThan(80);
    // Headings only count from the table's heading line, not from the letterhead.
    expect(detectBank({ text: first, headings: "Date Description Debit Credit Balance", producer: "" }).profile).toBeNull();
  });
  test("a sort code's first three digits are the bank's CBN code", () => {
    expect(detectBank("Sort Code: 058152052").profile?.id).toBe("gtbank");
    expect(detectBank("SORT CODE 044-150-149").profile?.id).toBe("access");
    expect(detectBank("Sort Code: 999000111").profile).toBeNull();
  });
  test("the letterhead wins over a partner named further down the page", () => {
    expect(detectBank("ZENITH BANK PLC\nStatement of account\nPowered by Paga").profile?.id).toBe("zenith");
  });
  test("nothing known: generic fallback with zero coverage", () => {
    expect(detectBank("Lagoon Cooperative Bank")).toEqual({ profile: null, markerCoverage: 0 });
  });
  test("listBanks gives id, name and formats", () => {
    const banks = listBanks();
    expect(banks).toHaveLength(BANK_PROFILES.length);
    expect(banks.find((b) => b.id === "opay")).toEqual({ id: "opay", name: "OPay", formats: ["pdf", "xlsx"] });
  });
});

describe("narrations never decide the bank", () => {
  const row = (top: number, d: string, n: string, dr: string, cr: string, bal: string) => ({
    top,
    puts: [{ x: 30, t: d }, { x: 100, t: n }, { r: 380, t: dr }, { r: 460, t: cr }, { r: 560, t: bal }],
  });
  /** A statement whose letterhead names no bank (or `letterhead`), with rows naming wallets and banks. */
  const statement = (letterhead: string) =>
    buildPdf([
      {
        lines: [
          { top: 40, puts: [{ x: 30, t: letterhead }], size: 12 },
          { top: 60, puts: [{ x: 30, t: "Account Name: ADA OBI" }] },
          { top: 72, puts: [{ x: 30, t: "Account Number: 0123456789" }] },
          { top: 100, puts: [{ x: 30, t: "Date" }, { x: 100, t: "Description" }, { r: 380, t: "Debit" }, { r: 460, t: "Credit" }, { r: 560, t: "Balance" }] },
          row(115, "02/01/2024", "TRANSFER FROM OPAY ADA OBI", "", "10,000.00", "10,000.00"),
          { top: 125, puts: [{ x: 100, t: "Kuda Microfinance Bank wallet top up" }] },
          // Printed far below its row, this narration line is not attached to it: it must still not count.
          { top: 160, puts: [{ x: 100, t: "PalmPay Limited www.palmpay.com" }] },
          row(190, "03/01/2024", "AIRTIME", "500.00", "", "9,500.00"),
          row(205, "04/01/2024", "TRF TO MONIEPOINT MFB / GTBank", "500.00", "", "9,000.00"),
          { top: 260, puts: [{ x: 30, t: "Thank you for banking with us." }] },
        ],
      },
    ]);

  test("rows naming other banks and wallets leave an unnamed statement unknown", async () => {
    const r = await parseStatement(await statement("STATEMENT OF ACCOUNT"));
    expect(r.metadata.bank).toBe("unknown");
    expect(r.transactions).toHaveLength(3);
    expect(r.checks.marker_coverage).toBeLessThan(80);
  });

  test("and do not change the bank the letterhead names", async () => {
    const r = await parseStatement(await statement("WEMA BANK PLC - STATEMENT OF ACCOUNT"));
    expect(r.metadata.bank).toBe("wema");
    expect(r.checks.marker_coverage).toBe(100);
  });

  test("the zones: text between rows of a page and middle pages are not read, letterhead and footer are", () => {
    const line = (page: number, y: number, text: string) => ({ page, y, h: 8, cells: [], text, pageWidth: 595, source: "pdf" as const });
    const input = detectionInput(
      {
        outside: [line(1, 40, "LETTERHEAD"), line(1, 160, "IN THE TABLE"), line(1, 400, "FOOTER"), line(2, 100, "PAGE TWO HEAD"), line(5, 40, "MIDDLE PAGE"), line(10, 40, "LAST PAGE")],
        rows: [
          { page: 1, y: 115, lastY: 125 },
          { page: 1, y: 205, lastY: 205 },
          { page: 2, y: 120, lastY: 130 },
        ],
        headerText: "Date Description",
      },
      "Producer X",
    );
    // Pages 4 to 8 of 10 hold only rows and repeated footers: skipped.
    expect(input).toEqual({ text: "LETTERHEAD\nFOOTER\nPAGE TWO HEAD\nLAST PAGE", headings: "Date Description", producer: "Producer X" });
  });
});

test("docs/engine.md's supported-banks table lists every profile with its name, formats and markers", () => {
  const readme = readFileSync(join(import.meta.dir, "../../docs/engine.md"), "utf8");
  for (const p of BANK_PROFILES) {
    // The "detected from" column names every marker group, heading set and sort-code prefix.
    const from = [
      ...p.markers.map((g) => g.map((m) => `\`${m}\``).join(" + ")),
      ...p.headings.map((h) => `headings ${h.map((m) => `\`${m}\``).join(" › ")}`),
      ...(p.sortCodes.length ? [`sort code ${p.sortCodes.map((c) => `\`${c}…\``).join(", ")}`] : []),
    ].join("; ");
    expect(readme).toContain(`| \`${p.id}\` | ${p.name} | ${p.formats.join(", ")} | ${from} |`);
  }
});
