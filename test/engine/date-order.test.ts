import { describe, expect, test } from "bun:test";
import { dateOrderNote, daysOutOfOrder, daysOutsidePeriod, outsidePeriodNote } from "../../src/engine/sections/date-order.ts";

const jan = (d: number) => `2026-01-${String(d).padStart(2, "0")}`;

describe("daysOutOfOrder", () => {
  test("a day past both neighbours in an oldest-first statement is out of order", () => {
    // A serial number read as the day of a wrapped date: 22 Jan between 10 and 11 Jan.
    const days = [1, 2, 5, 9, 10, 22, 11, 12, 12, 14].map(jan);
    expect(daysOutOfOrder(days)).toEqual([5]);
  });

  test("newest first, a day earlier than both neighbours is out of order", () => {
    const days = [30, 28, 27, 3, 25, 25, 20, 18].map(jan);
    expect(daysOutOfOrder(days)).toEqual([3]);
  });

  test("a sorted statement, with repeated days, has none", () => {
    expect(daysOutOfOrder([1, 1, 2, 2, 2, 3, 7, 7, 9].map(jan))).toEqual([]);
    expect(daysOutOfOrder([9, 7, 7, 3, 2, 2, 1].map(jan))).toEqual([]);
  });

  test("a statement not in date order at all is not judged row by row", () => {
    expect(daysOutOfOrder([5, 2, 9, 1, 7, 3, 8, 4, 6].map(jan))).toEqual([]);
  });

  test("all on one day, or too short for neighbours, has none", () => {
    expect(daysOutOfOrder([jan(4), jan(4), jan(4)])).toEqual([]);
    expect(daysOutOfOrder([jan(9), jan(1)])).toEqual([]);
  });

  test("a row at a step between two days is not out of order", () => {
    // 3 lies between 2 and 4: the order is kept.
    expect(daysOutOfOrder([1, 2, 3, 4, 20, 21].map(jan))).toEqual([]);
  });
});

describe("dateOrderNote", () => {
  test("names each row (1-based) with its day, three at most", () => {
    const dates = [1, 2, 3, 4, 5, 6].map((d) => `${jan(d)}T00:00:00+01:00`);
    expect(dateOrderNote([], dates)).toBeNull();
    expect(dateOrderNote([1], dates)).toBe("Dates out of the statement's order, possibly misread (the balances do not depend on them): row 2 (2026-01-02).");
    expect(dateOrderNote([0, 1, 2, 3, 4], dates)).toContain("row 3 (2026-01-03), and 2 more.");
  });
});

describe("daysOutsidePeriod", () => {
  test("rows before the period's first day or after its last", () => {
    // A day and month read the wrong way round: 2026-04-03 in a March statement.
    const days = ["2026-03-01", "2026-03-02", "2026-04-03", "2026-03-31", "2026-02-28"];
    expect(daysOutsidePeriod(days, "2026-03-01", "2026-03-31")).toEqual([2, 4]);
    expect(daysOutsidePeriod(["2026-03-01", "2026-03-31"], "2026-03-01", "2026-03-31")).toEqual([]);
  });

  test("the note names the period and the rows", () => {
    const dates = ["2026-03-01T00:00:00+01:00", "2026-04-03T00:00:00+01:00"];
    expect(outsidePeriodNote([], dates, "2026-03-01", "2026-03-31")).toBeNull();
    expect(outsidePeriodNote([1], dates, "2026-03-01", "2026-03-31")).toBe(
      "Dates outside the printed statement period (2026-03-01 to 2026-03-31), possibly misread (the balances do not depend on them): row 2 (2026-04-03).",
    );
  });
});
