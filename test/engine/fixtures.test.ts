/**
 * Golden fixtures: every generated statement parsed by the engine must equal its expected.json,
 * field by field. A second group checks the files on disk still match the generator, so the
 * expectations cannot drift from the data model that produced the documents.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { buildExpected, expectedJson, renderFixture } from "../../fixtures/build.ts";
import { differences } from "../../fixtures/compare.ts";
import type { ExpectedResponse } from "../../fixtures/lib/expected.ts";
import { LAYOUTS } from "../../fixtures/layouts/index.ts";
import { compareLocal, makeStatement } from "../../fixtures/lib/model.ts";
import { iso, printDate, type DateStyle } from "../../fixtures/lib/format.ts";
import { parseStatement } from "../../src/engine/index.ts";

const FIXTURES = join(import.meta.dir, "../../fixtures");

function readExpected(name: string): ExpectedResponse {
  return JSON.parse(readFileSync(join(FIXTURES, name, "expected.json"), "utf8")) as ExpectedResponse;
}

describe("generated fixtures parse to their expected JSON", () => {
  for (const layout of LAYOUTS) {
    test(layout.name, async () => {
      const bytes = new Uint8Array(readFileSync(join(FIXTURES, layout.name, layout.file)));
      const actual = await parseStatement(bytes, {});
      expect(differences(readExpected(layout.name), actual)).toEqual([]);
      // The full account number must appear nowhere in the output, only its last four digits.
      expect(JSON.stringify(actual)).not.toContain(makeStatement(layout.options).accountNumber);
    });
  }
});

describe("fixtures on disk match the generator", () => {
  const built = buildExpected();

  test("every layout's expected.json equals what the generator builds now", () => {
    const stale = built
      .filter(({ layout, expected }) => readFileSync(join(FIXTURES, layout.name, "expected.json"), "utf8") !== expectedJson(expected))
      .map(({ layout }) => layout.name);
    // Fix: run `npx bun fixtures/generate.ts` and commit the result.
    expect(stale).toEqual([]);
  });

  test("statement files on disk are byte for byte what the generator renders now", async () => {
    const stale: string[] = [];
    for (const layout of LAYOUTS.filter((l) => !l.systemFont)) {
      const onDisk = new Uint8Array(readFileSync(join(FIXTURES, layout.name, layout.file)));
      if (Buffer.compare(Buffer.from(await renderFixture(layout)), Buffer.from(onDisk)) !== 0) stale.push(layout.name);
    }
    // Fix: run `npx bun fixtures/generate.ts` and commit the result.
    expect(stale).toEqual([]);
  }, 120_000); // renders every document again: seconds of work on a busy machine

  test("every layout has its statement file and no stray fixture folders exist", () => {
    const missing = LAYOUTS.filter((l) => !existsSync(join(FIXTURES, l.name, l.file))).map((l) => l.name);
    expect(missing).toEqual([]);
    const folders = readdirSync(FIXTURES).filter((f) => statSync(join(FIXTURES, f)).isDirectory() && existsSync(join(FIXTURES, f, "expected.json")));
    expect(folders.sort()).toEqual(LAYOUTS.map((l) => l.name).sort());
  });

  test("the set covers the required variety", () => {
    expect(LAYOUTS.length).toBeGreaterThanOrEqual(14);
    const banks = new Set(built.map((b) => b.expected.metadata.bank));
    for (const bank of ["gtbank", "access", "uba", "kuda", "moniepoint", "stanbic", "fidelity", "wema", "unknown"]) expect(banks).toContain(bank);
    expect(built.filter((b) => b.expected.metadata.bank === "unknown").length).toBeGreaterThanOrEqual(3);
    expect(built.some((b) => !b.expected.row_wise_reconcilable)).toBe(true);
    expect(new Set(LAYOUTS.map((l) => l.file))).toEqual(new Set(["statement.pdf", "statement.xlsx", "statement.xls"]));
  });

  test("every generated statement is internally consistent (so the expectations themselves are right)", () => {
    const problems: string[] = [];
    for (const layout of LAYOUTS) {
      const s = makeStatement(layout.options);
      let balance = s.opening;
      s.txns.forEach((t, i) => {
        if ((t.debit > 0) === (t.credit > 0)) problems.push(`${layout.name}[${i}]: exactly one of debit/credit must be set`);
        balance += t.credit - t.debit;
        const intended = layout.options.breakAt === i ? balance + (layout.options.breakBy ?? 0) : balance;
        if (t.balance !== intended) problems.push(`${layout.name}[${i}]: balance ${t.balance} != chain ${intended}`);
        if (compareLocal(t.at, s.periodStart) < 0 || compareLocal(t.at, { ...s.periodEnd, hh: 23, mi: 59, ss: 59 }) > 0) problems.push(`${layout.name}[${i}]: date outside the period`);
        if (i > 0 && compareLocal(s.txns[i - 1]!.at, t.at) > 0) problems.push(`${layout.name}[${i}]: out of order`);
      });
      if (!/^\d{10}$/.test(s.accountNumber)) problems.push(`${layout.name}: account number ${s.accountNumber}`);
      if (s.reconciles !== (layout.options.breakAt === undefined)) problems.push(`${layout.name}: reconciles flag`);
      if (s.closing !== (s.txns.at(-1)?.balance ?? s.opening)) problems.push(`${layout.name}: closing balance`);
    }
    expect(problems).toEqual([]);
  });

  test("the generator prints every date style as its comment says", () => {
    const t = { y: 2024, m: 1, d: 3, hh: 14, mi: 2, ss: 9 };
    const styles: Array<[DateStyle, string]> = [
      ["dd-Mon-yyyy", "03-Jan-2024"], ["dd-MON-yy", "03-JAN-24"], ["dd-MON-yyyy", "03-JAN-2024"], ["Mon d, yyyy", "Jan 3, 2024"],
      ["dd Mon", "03 Jan"], ["d Month yyyy", "3 January 2024"], ["dd/mm/yyyy", "03/01/2024"], ["yyyy-mm-dd", "2024-01-03"],
      ["dd Mon yyyy", "03 Jan 2024"], ["yyyy Mon dd", "2024 Jan 03"], ["mm/dd/yyyy", "01/03/2024"], ["dd.mm.yyyy", "03.01.2024"],
      ["d-Mon-yy", "3-Jan-24"], ["dd/mm/yy", "03/01/24"], ["dd-mm-yyyy", "03-01-2024"], ["do Mon yyyy", "3rd Jan 2024"], ["yyyy/mm/dd", "2024/01/03"],
    ];
    expect(styles.map(([style]) => printDate(t, style))).toEqual(styles.map(([, want]) => want));
    expect(printDate(t, "mm/dd/yyyy", "hh:mm:ss AM")).toBe("01/03/2024 02:02:09 PM");
    expect(printDate({ ...t, hh: 0 }, "dd/mm/yyyy", "h:mm AM")).toBe("03/01/2024 12:02 AM");
    expect(printDate({ ...t, d: 11 }, "do Mon yyyy")).toBe("11th Jan 2024");
    expect(printDate({ ...t, d: 22 }, "do Mon yyyy")).toBe("22nd Jan 2024");
    expect(iso(t, true)).toBe("2024-01-03T14:02:09+01:00");
    expect(iso(t, false)).toBe("2024-01-03T00:00:00+01:00");
  });

  test("expected JSON follows the output conventions", () => {
    const problems: string[] = [];
    for (const { layout, expected } of built) {
      const m = expected.metadata;
      if (!/^\*{6}\d{4}$/.test(m.account_number_masked)) problems.push(`${layout.name}: mask ${m.account_number_masked}`);
      const money = [m.opening_balance, m.closing_balance, expected.totals.credit, expected.totals.debit];
      const dates = [m.statement_period_start, m.statement_period_end];
      let credit = 0n;
      let debit = 0n;
      let previous = "";
      for (const t of expected.transactions) {
        money.push(t.debit, t.credit, t.balance);
        dates.push(t.date);
        credit += BigInt(t.credit.replace(".", ""));
        debit += BigInt(t.debit.replace(".", ""));
        if (t.date < previous) problems.push(`${layout.name}: not oldest first at ${t.date}`);
        previous = t.date;
      }
      for (const v of money) if (!/^-?\d+\.\d{2}$/.test(v)) problems.push(`${layout.name}: amount ${v}`);
      for (const v of dates) if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+01:00$/.test(v)) problems.push(`${layout.name}: date ${v}`);
      const kobo = (s: string) => BigInt(s.replace(".", ""));
      if (kobo(expected.totals.credit) !== credit || kobo(expected.totals.debit) !== debit) problems.push(`${layout.name}: totals`);
    }
    expect(problems).toEqual([]);
  });
});
