import { describe, expect, test } from "bun:test";
import { formatKobo, groupThousands, isEmptyAmount, koboFromNumber, parseAmount, parseMoney } from "../../src/engine/money.ts";

describe("parseAmount", () => {
  test.each([
    ["1,234.56", 123456n, null],
    ["₦1,234.56", 123456n, null],
    ["NGN 1,234.56", 123456n, null],
    ["N1,234.56", 123456n, null],
    ["(1,234.56)", -123456n, null],
    ["-1,234.56", -123456n, null],
    ["+1,234.56", 123456n, null],
    ["₦-1,234.56", -123456n, null],
    ["-₦1,234.56", -123456n, null],
    ["1,234.56 DR", 123456n, "DR"],
    ["1,234.56 CR", 123456n, "CR"],
    ["1,234.56Cr", 123456n, "CR"],
    ["1234.5", 123450n, null],
    ["0.00", 0n, null],
    ["5000", 500000n, null],
    ["1,000,000.00", 100000000n, null],
    [".50", 50n, null],
    ["1234.567", 123457n, null],
    ["0.995", 100n, null],
  ] as const)("%s", (text, kobo, marker) => {
    const a = parseAmount(text);
    expect(a?.kobo).toBe(kobo);
    expect(a?.marker).toBe(marker);
  });

  test("text, dates and malformed groupings are not amounts", () => {
    for (const t of ["abc", "03/01/2024", "1,23,4.00", "(12.00", "12.00)", "", "FT123456", "1.2.3"]) expect(parseAmount(t)).toBeNull();
  });

  test("a bare integer is an amount but not money-shaped; grouped or decimal ones are", () => {
    expect(parseAmount("0123456789")?.moneyShaped).toBe(false);
    expect(parseMoney("0123456789")).toBeNull();
    expect(parseMoney("1,000")?.kobo).toBe(100000n);
    expect(parseMoney("₦5")?.kobo).toBe(500n);
  });

  test("placeholders for no amount", () => {
    for (const t of ["--", "-", "", "  ", "₦--", "—"]) expect(isEmptyAmount(t)).toBe(true);
    for (const t of ["0.00", "-1.00", "x"]) expect(isEmptyAmount(t)).toBe(false);
  });
});

describe("formatKobo", () => {
  test.each([
    [123456n, "1234.56"],
    [-1200n, "-12.00"],
    [0n, "0.00"],
    [5n, "0.05"],
    [-5n, "-0.05"],
    [100000000000n, "1000000000.00"],
  ])("%p -> %s", (k, s) => expect(formatKobo(k)).toBe(s));

  test("typed spreadsheet numbers become exact kobo", () => {
    expect(koboFromNumber(0.1 + 0.2)).toBe(30n);
    expect(koboFromNumber(-1234.5)).toBe(-123450n);
    expect(koboFromNumber(19.999)).toBe(2000n);
  });
});

describe("groupThousands (display only)", () => {
  test("groups the whole part of a plain amount, on the string", () => {
    expect(groupThousands("1234567.50")).toBe("1,234,567.50");
    expect(groupThousands("-1000.00")).toBe("-1,000.00");
    expect(groupThousands("999.99")).toBe("999.99");
    expect(groupThousands("0.00")).toBe("0.00");
    expect(groupThousands("123456789012345678901.00")).toBe("123,456,789,012,345,678,901.00");
  });
  test("leaves anything that is not a plain amount alone", () => {
    for (const s of ["", "—", "1,234.00", "N1000", "12a34"]) expect(groupThousands(s)).toBe(s);
  });
});
