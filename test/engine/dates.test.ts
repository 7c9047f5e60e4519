import { describe, expect, test } from "bun:test";
import { completePartialDate, formatLagos, inferDayMonthOrder, type RawDate, resolveDate, scanDate, scanPartialDate, scanPeriod } from "../../src/engine/dates.ts";

const iso = (text: string, order: "dmy" | "mdy" = "dmy") => {
  const d = scanDate(text);
  return d ? formatLagos(resolveDate(d, order)) : null;
};

describe("scanDate forms", () => {
  test.each([
    ["03-Jan-2024", "2024-01-03T00:00:00+01:00"],
    ["03-JAN-24", "2024-01-03T00:00:00+01:00"],
    ["03/01/2024", "2024-01-03T00:00:00+01:00"],
    ["2024-01-03", "2024-01-03T00:00:00+01:00"],
    ["03 Jan 2024", "2024-01-03T00:00:00+01:00"],
    ["3 January, 2024", "2024-01-03T00:00:00+01:00"],
    ["Jan 03, 2024", "2024-01-03T00:00:00+01:00"],
    ["2024 Jan 03 14:22:11", "2024-01-03T14:22:11+01:00"],
    ["02 May 2023 08:21:07", "2023-05-02T08:21:07+01:00"],
    ["2024-05-01T23:05:06", "2024-05-01T23:05:06+01:00"],
    ["03.01.2024 09:15", "2024-01-03T09:15:00+01:00"],
    ["31-12-99", "1999-12-31T00:00:00+01:00"],
    // A weekday before the date is read past.
    ["Fri, 27 Nov 2026 14:03", "2026-11-27T14:03:00+01:00"],
    ["Thursday, November 26, 2026", "2026-11-26T00:00:00+01:00"],
    ["Tue 03/02/2026", "2026-02-03T00:00:00+01:00"],
  ])("%s", (text, want) => expect(iso(text)).toBe(want));

  test("AM/PM with US order", () => {
    expect(iso("01/03/2024 02:13:00 PM", "mdy")).toBe("2024-01-03T14:13:00+01:00");
    expect(iso("06/13/2026 12:04:37 AM", "mdy")).toBe("2026-06-13T00:04:37+01:00");
    expect(iso("06/13/2026 12:30:00 PM", "mdy")).toBe("2026-06-13T12:30:00+01:00");
  });

  test("not dates", () => {
    for (const t of ["1,234.56", "32/01/2024", "2024-13-01", "30-Feb-2024", "hello", "20240103", "12:30", "Friday", "Fri, 12:30", "Sunday 2024"]) expect(scanDate(t)).toBeNull();
  });

  test("yearless dates take the year of the statement period", () => {
    const p = scanPartialDate("02 Dec");
    expect(p).toEqual({ month: 12, day: 2 });
    const period = scanPeriod("01 Dec 2024 - 31 Jan 2025")!;
    expect(formatLagos(completePartialDate(p!, period, 2000))).toBe("2024-12-02T00:00:00+01:00");
    expect(formatLagos(completePartialDate(scanPartialDate("05-Jan")!, period, 2000))).toBe("2025-01-05T00:00:00+01:00");
    // A date broken after the month: the halves joined read as one date.
    expect(scanPartialDate("03-Jan-")).toEqual({ month: 1, day: 3 });
    expect(iso("03-Jan- 2024")).toBe("2024-01-03T00:00:00+01:00");
  });
});

describe("scanPartialDate", () => {
  test("a yearless date, day first or month first, its year gone to the next line", () => {
    expect(scanPartialDate("03 Jan")).toEqual({ month: 1, day: 3 });
    expect(scanPartialDate("Jan 3,")).toEqual({ month: 1, day: 3 });
    expect(scanPartialDate("September 30")).toEqual({ month: 9, day: 30 });
    for (const t of ["Jan 32,", "Jan", "3,", "Janet 3", "May 5 2026"]) expect(scanPartialDate(t)).toBeNull();
  });
});

describe("day/month order per document", () => {
  const all = (...texts: string[]) => texts.map((t) => scanDate(t)!) as RawDate[];
  test("a first part above 12 proves day-first", () => {
    expect(inferDayMonthOrder(all("01/02/2024", "13/02/2024"))).toBe("dmy");
  });
  test("a second part above 12 proves month-first", () => {
    expect(inferDayMonthOrder(all("06/05/2026", "06/13/2026"))).toBe("mdy");
  });
  test("without proof, the order under which the dates run in sequence wins", () => {
    // 01/02, 01/03, 01/04 ... reads as Jan 2, Jan 3, Jan 4 in US order and as 1 Feb, 1 Mar, 1 Apr day-first;
    // both are monotonic, so day-first (the Nigerian convention) is kept.
    expect(inferDayMonthOrder(all("01/02/2024", "01/03/2024", "01/04/2024"))).toBe("dmy");
    // 02/01, 03/01, 01/02, 05/02: day-first is sorted, month-first is not.
    expect(inferDayMonthOrder(all("02/01/2024", "03/01/2024", "01/02/2024", "05/02/2024"))).toBe("dmy");
    // 01/02, 01/03, 02/01, 02/05 is sorted only month-first (Jan 2, Jan 3, Feb 1, Feb 5).
    expect(inferDayMonthOrder(all("01/02/2024", "01/03/2024", "02/01/2024", "02/05/2024"))).toBe("mdy");
  });
  test("named months are never ambiguous", () => {
    expect(scanDate("03-Jan-2024")?.ambiguous).toBe(false);
    expect(scanDate("03/01/2024")?.ambiguous).toBe(true);
  });
});

describe("scanPeriod", () => {
  test.each([
    ["30/06/2025 TO 28/02/2026", "2025-06-30", "2026-02-28"],
    ["01 May 2023 - 12 May 2023", "2023-05-01", "2023-05-12"],
    ["01 May 2023-12 May 2023", "2023-05-01", "2023-05-12"],
    ["Period: 2024-08-01 to 2024-08-31", "2024-08-01", "2024-08-31"],
    ["01-Jan-2024 To 31-Mar-2024", "2024-01-01", "2024-03-31"],
    // Whole months: one, and a range of them (the first's first day to the last's last).
    ["May 2023", "2023-05-01", "2023-05-31"],
    ["Jan 2026 - Mar 2026", "2026-01-01", "2026-03-31"],
    ["Statement period: December 2025 to February 2026", "2025-12-01", "2026-02-28"],
  ])("%s", (text, a, b) => {
    const p = scanPeriod(text)!;
    expect(formatLagos(resolveDate(p[0], "dmy")).slice(0, 10)).toBe(a);
    expect(formatLagos(resolveDate(p[1], "dmy")).slice(0, 10)).toBe(b);
  });
});

describe("scanPeriod: forms seen on statements", () => {
  const iso = (p: [RawDate, RawDate] | null) => {
    if (!p) return null;
    const order = inferDayMonthOrder(p);
    return p.map((d) => formatLagos(resolveDate(d, order)).slice(0, 10));
  };
  test.each([
    ["From: 01 May 2024 To: 31 May 2024", ["2024-05-01", "2024-05-31"]],
    ["01-May-2024 to 31-May-2024", ["2024-05-01", "2024-05-31"]],
    ["Covering 1 May 2024 through 31 May 2024", ["2024-05-01", "2024-05-31"]],
    ["JUL.01 2026 - JUL.31 2026", ["2026-07-01", "2026-07-31"]],
    ["Statement Period 04/30/2026 - 08/01/2026", ["2026-04-30", "2026-08-01"]],
    ["for the period 01/05/2024 – 31/05/2024", ["2024-05-01", "2024-05-31"]],
    ["between 1 May 2024 and 31 May 2024", ["2024-05-01", "2024-05-31"]],
  ])("%s", (text, want) => expect(iso(scanPeriod(text))).toEqual(want));

  test("the end that proves month-first orders the other end, which stays out of the document vote", () => {
    const [a, b] = scanPeriod("04/30/2026 - 08/01/2026")!;
    expect(a.ambiguous).toBe(true);
    expect(b).toMatchObject({ month: 8, day: 1, ambiguous: false });
    // Under either document order the proving end reads the same.
    expect(formatLagos(resolveDate(a, "dmy")).slice(0, 10)).toBe("2026-04-30");
  });

  test("long or dateless texts are no period", () => {
    expect(scanPeriod(`Period ${"x ".repeat(100)}01 May 2024 - 31 May 2024`)).toBeNull();
    expect(scanPeriod("Statement Period: to be confirmed")).toBeNull();
  });
});

describe("formatLagos", () => {
  test("every field padded as String(n).padStart does", () => {
    const ref = (d: RawDate) => {
      const p = (n: number, w = 2) => String(n).padStart(w, "0");
      return `${p(d.year, 4)}-${p(d.month)}-${p(d.day)}T${p(d.hour)}:${p(d.minute)}:${p(d.second)}+01:00`;
    };
    const base = scanDate("03/01/2024")!;
    for (const n of [0, -0, 1, 9, 10, 59, 99, 100, 123, -1, 2.5]) {
      for (const field of ["year", "month", "day", "hour", "minute", "second"] as const) {
        const d = { ...base, [field]: n };
        expect(formatLagos(d)).toBe(ref(d));
      }
    }
  });
});

