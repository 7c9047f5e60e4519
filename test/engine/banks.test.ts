import { describe, expect, test } from "bun:test";
import { detectBank } from "../../src/engine/banks/detect.ts";
import { type BankProfileInput, defineBankProfile } from "../../src/engine/banks/profile.ts";
import { BANK_PROFILES } from "../../src/engine/banks/profiles.ts";
import { listBanks } from "../../src/engine/index.ts";

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
  test("a valid profile gets defaults", () => {
    expect(defineBankProfile(valid)).toEqual({ ...valid, formats: ["pdf"], quirks: {} } as never);
  });
});

describe("bank detection", () => {
  test("every required bank has a profile with a unique id", () => {
    const ids = BANK_PROFILES.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ["gtbank", "access", "zenith", "firstbank", "uba", "kuda", "opay", "moniepoint", "palmpay", "stanbic", "fidelity", "fcmb", "sterling", "wema", "union", "ecobank", "polaris", "providus", "heritage", "keystone"]) {
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
  test("nothing known: generic fallback with zero coverage", () => {
    expect(detectBank("Lagoon Cooperative Bank")).toEqual({ profile: null, markerCoverage: 0 });
  });
  test("listBanks gives id, name and formats", () => {
    const banks = listBanks();
    expect(banks).toHaveLength(BANK_PROFILES.length);
    expect(banks.find((b) => b.id === "opay")).toEqual({ id: "opay", name: "OPay", formats: ["pdf", "xlsx"] });
  });
});
