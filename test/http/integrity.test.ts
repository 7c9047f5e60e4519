/**
 * The integrity report over real HTTP: the sync endpoint and a job both carry it, for a document
 * parsed whole and for one split into page ranges across the workers (the planning task reads the
 * byte-level facts, each range its pages' facts).
 */
import { describe, expect, test } from "bun:test";
import type { Integrity } from "../../src/engine/integrity/index.ts";
import { drawOver } from "../engine/integrity/doctor.ts";
import { LAYOUT, ROWS, type Row, rowY, statement } from "../engine/integrity/statement.ts";
import { form, get, newKey, post, submit } from "../jobs/support/http.ts";
import { startTestServer } from "../helpers/server.ts";

const server = await startTestServer({ WORKERS: "2", TEST_MONTHLY_CAP: "100000" });
const { key } = await newKey(server);

const parse = async (bytes: Uint8Array) => {
  const res = await post(server, "/v1/parse", key, form(bytes));
  expect(res.status).toBe(200);
  return (await res.json()) as { integrity: Integrity; transactions: unknown[] };
};

/** Twelve pages of ten rows: above the split threshold, so ranges go to both workers. */
const manyRows: Row[] = Array.from({ length: 120 }, (_, i) => ({ ...ROWS[i % ROWS.length]!, date: `${String(1 + Math.floor(i / 5)).padStart(2, "0")}/03/2026` }));
const twelvePages = await statement({ rows: manyRows, pages: 12 });
const overPage10 = await drawOver(twelvePages, { page: 9, right: LAYOUT.balanceRight, y: rowY(4), text: "9,876,543.21" });

describe("POST /v1/parse carries integrity", () => {
  test("a one-page original: no_signals with the facts it read", async () => {
    const body = await parse(await statement());
    expect(body.integrity).toMatchObject({ verdict: "no_signals", signals: [], producer: "Oduduwa Core Banking Statement Service", incremental_updates: 0 });
    expect(body.integrity.fonts_per_page).toEqual([{ page: 1, fonts: ["Helvetica", "Helvetica-Bold"] }]);
  });

  test("a one-page doctored copy: likely_edited with the page of the edit", async () => {
    const body = await parse(await drawOver(await statement(), { right: LAYOUT.creditRight, y: rowY(3), text: "4,200,000.00" }));
    expect(body.integrity.verdict).toBe("likely_edited");
    expect(body.integrity.signals.find((s) => s.code === "text_over_text")).toMatchObject({ severity: "high", page: 1 });
  });

  test("a twelve-page document split across workers: every page's facts and the edit on page 10", async () => {
    const original = await parse(twelvePages);
    expect(original.transactions.length).toBe(120);
    expect(original.integrity.verdict).toBe("no_signals");
    expect(original.integrity.fonts_per_page.map((p) => p.page)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    const doctored = await parse(overPage10);
    expect(doctored.integrity.signals.filter((s) => s.code === "text_over_text").map((s) => s.page)).toEqual([10]);
    expect(doctored.integrity.verdict).toBe("likely_edited");
  });
});

describe("a job's result carries integrity", () => {
  test("the same report as the sync endpoint", async () => {
    const created = await submit(server, key, form(overPage10));
    let snap: { state: string; result?: { integrity: Integrity } } = { state: "queued" };
    for (let i = 0; i < 600 && snap.state !== "done" && snap.state !== "failed"; i++) {
      await Bun.sleep(100);
      snap = (await (await get(server, created.poll_url, key)).json()) as typeof snap;
    }
    expect(snap.state).toBe("done");
    expect(snap.result!.integrity).toEqual((await parse(overPage10)).integrity);
  });
});
