/** PDF dates (ISO 32000-1 7.9.4) as the report's ISO 8601 strings. */
import { expect, test } from "bun:test";
import { pdfDate } from "../../../src/engine/integrity/facts.ts";

test("pdfDate reads every form a producer writes, and refuses the rest", () => {
  expect(pdfDate("D:20260401090000+01'00'")).toBe("2026-04-01T09:00:00+01:00");
  expect(pdfDate("D:20260401090000-05'30")).toBe("2026-04-01T09:00:00-05:30");
  expect(pdfDate("D:20260401090000Z00'00'")).toBe("2026-04-01T09:00:00Z");
  expect(pdfDate("D:20260401090000")).toBe("2026-04-01T09:00:00Z");
  expect(pdfDate("D:2026")).toBe("2026-01-01T00:00:00Z");
  expect(pdfDate("20260401")).toBe("2026-04-01T00:00:00Z");
  expect(pdfDate("D:20261301")).toBeNull();
  expect(pdfDate("yesterday")).toBeNull();
  expect(pdfDate("")).toBeNull();
});
