import { describe, expect, test } from "bun:test";
import { amountKobo, formatKobo, groupThousands, isEmptyAmount, koboFromNumber, parseAmount, parseMoney } from "../../src/engine/money.ts";

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
    ["1,234.56 NGN", 123456n, null],
    ["1,234.56 (DR)", 123456n, "DR"],
    ["₦1,234.56 (CR)", 123456n, "CR"],
    // A naira sign the producer's font could not draw (ReportLab's standard fonts print ■).
    ["-■38,610.49", -3861049n, null],
    ["■-13,610.49", -1361049n, null],
    ["+□1,234.56", 123456n, null],
    ["\uFFFD1,234.56", 123456n, null],
    // Dompdf's core fonts print `?` for the naira sign.
    ["+?92,050.01", 9205001n, null],
    ["-?29,166.01", -2916601n, null],
    ["?3,364,965.51", 336496551n, null],
  ] as const)("%s", (text, kobo, marker) => {
    const a = parseAmount(text);
    expect(a?.kobo).toBe(kobo);
    expect(a?.marker).toBe(marker);
  });

  test("text, dates and malformed groupings are not amounts", () => {
    for (const t of ["abc", "03/01/2024", "1,23,4.00", "(12.00", "12.00)", "", "FT123456", "1.2.3", "(DR)", "NGN", "12.00 (DR", "12.00 NGN NGN", "■", "■■1,234.56", "?", "??1,234.56", "? 1,234.56", "Questions?"]) expect(parseAmount(t)).toBeNull();
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

describe("amountKobo (the insights' reading of a response's amounts)", () => {
  test("the same kobo as parseAmount, on the response's shape and every other", () => {
    const texts = [
      "0.00", "-0.50", "5.07", "1234.56", "-1057937.96", "999999999999999.99", "123456789012345.67", "1234567890123456.78",
      "1,234.56", "-1,234.56", "(500.00)", "₦1,000.00", "1,234.56 CR", "12.3", "12.345", "1.234.56", ".50", "-", "", "abc", "12a.45", "1-2.34",
    ];
    for (const t of texts) expect([t, amountKobo(t)]).toEqual([t, parseAmount(t)?.kobo]);
    for (let i = 0; i < 2000; i++) {
      const kobo = BigInt(Math.floor(Math.random() * 10 ** (1 + (i % 15)))) * (i % 3 === 0 ? -1n : 1n);
      const text = formatKobo(kobo);
      expect(amountKobo(text)).toBe(kobo);
    }
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
    [-99n, "-0.99"],
    [9007199254740991n, "90071992547409.91"],
    [-9007199254740991n, "-90071992547409.91"],
    [9007199254740992n, "90071992547409.92"],
    [-123456789012345678901n, "-1234567890123456789.01"],
  ])("%p -> %s", (k, s) => expect(formatKobo(k)).toBe(s));

  test("the number path (safe integers) and the bigint path agree around the boundary", () => {
    const viaBigint = (k: bigint) => `${k < 0n ? "-" : ""}${(k < 0n ? -k : k) / 100n}.${((k < 0n ? -k : k) % 100n).toString().padStart(2, "0")}`;
    for (let k = -1001n; k <= 1001n; k++) expect(formatKobo(k)).toBe(viaBigint(k));
    const max = BigInt(Number.MAX_SAFE_INTEGER);
    for (let k = max - 300n; k <= max + 300n; k++) {
      expect(formatKobo(k)).toBe(viaBigint(k));
      expect(formatKobo(-k)).toBe(viaBigint(-k));
    }
  });

  test("the fast paths (plain, minus plain) read as the general path does", () => {
    // A leading space keeps a text off the fast paths: the general path trims it and reads the rest.
    const texts = ["0.00", "-0.00", "5.07", "-5.07", "1,234.56", "-1,057,937.96", "999,999,999.99", "-12345678.90", "90,071,992,547,409.91", "-90,071,992,547,409.93"];
    for (let k = 1; k < 2_000_000_000; k = k * 7 + 13) texts.push((k / 100).toFixed(2), `-${(k / 100).toFixed(2)}`);
    for (const t of texts) expect({ t, a: parseAmount(t) }).toEqual({ t, a: parseAmount(` ${t}`) });
  });

  test("plain amounts read exactly on both sides of the safe-integer boundary", () => {
    expect(parseAmount("90,071,992,547,409.91")?.kobo).toBe(9007199254740991n);
    expect(parseAmount("90,071,992,547,409.93")?.kobo).toBe(9007199254740993n);
    expect(parseAmount("12345678901234567890.12")?.kobo).toBe(1234567890123456789012n);
    expect(parseAmount("0.07")?.kobo).toBe(7n);
    expect(parseAmount("1,000.00")?.kobo).toBe(100000n);
  });

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
