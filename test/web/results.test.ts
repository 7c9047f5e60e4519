/**
 * The page's result views in a real browser (Debian's chromium through playwright-core) against a
 * real server: the checks panel with every note, a 10,000-row result that pages, searches and sorts,
 * the charts, account tabs, cancel, and every download of one parse.
 */
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { statementPdf, statementXlsx } from "../../bench/generate.ts";
import { createClient } from "../../src/index.ts";
import { launchBrowser } from "../helpers/browser.ts";
import { unique } from "../helpers/db.ts";
import { startTestServer } from "../helpers/server.ts";

const ROOT = resolve(import.meta.dir, "../..");
const SAMPLES = join(ROOT, "fixtures/real");
const ARTIFACTS = join(ROOT, "test-artifacts");
mkdirSync(ARTIFACTS, { recursive: true });

const server = await startTestServer({ TEST_MONTHLY_CAP: "1000" });
const issued = await server.admin("/v1/keys/test", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ owner: unique("web-results") }) });
const key = ((await issued.json()) as { key: string }).key;
const client = createClient({ baseUrl: server.url, apiKey: key });

const scratch = mkdtempSync(join(tmpdir(), "web-results-"));
const context: BrowserContext = await launchBrowser({ width: 1280, height: 900 });
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let page: Page;
beforeEach(async () => {
  for (const p of context.pages()) await p.close();
  page = await context.newPage();
});

async function submit(p: Page, o: { url?: string; key?: string; file: string; output: "json" | "csv" | "redact" }) {
  await p.goto(o.url ?? server.url);
  await p.getByLabel("Your API key").fill(o.key ?? key);
  await p.getByLabel("Your API key").press("Tab");
  await p.locator("#file").setInputFiles(o.file);
  await p.getByLabel(o.output === "json" ? "JSON" : o.output === "csv" ? "CSV" : "Redacted document").check();
  await p.getByRole("button", { name: "Parse statement" }).click();
}

const text = async (selector: string) => (await page.locator(selector).textContent()) ?? "";

describe("the checks panel", () => {
  test("shows each comparison and every note in checks.notes next to the badge", async () => {
    const file = join(SAMPLES, "palmpay.pdf");
    const json = await client.parse(new Uint8Array(readFileSync(file)));
    // PalmPay prints no opening balance: the engine says so in a note, whatever the badge shows.
    expect(json.checks.notes.length).toBeGreaterThan(0);
    await submit(page, { file, output: "json" });
    await page.locator("#result").waitFor({ state: "visible" });
    const panel = await text("#checks");
    for (const note of json.checks.notes) expect(panel).toContain(note);
    expect(panel).toContain("Balance chain");
    expect(panel).toContain(`money in ${json.totals.credit.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}`);
    expect(await page.locator("#checks .notes li").count()).toBe(json.checks.notes.length);
    expect(await page.locator("#badge").isVisible()).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, "web-checks-notes.png"), fullPage: true });
  });
});

describe("a 10,000-row result", () => {
  test("pages, searches and sorts, and the table scrolls in its own box", async () => {
    const file = join(scratch, "big.xlsx");
    writeFileSync(file, await statementXlsx(10_000));
    const json = await client.parse(new Uint8Array(readFileSync(file)));
    expect(json.transactions.length).toBe(10_000);
    await submit(page, { file, output: "json" });
    await page.locator("#result").waitFor({ state: "visible", timeout: 90_000 });
    expect(await page.locator("#transactions tbody tr").count()).toBe(100);
    expect(await text("#page-info")).toBe("Rows 1–100 of 10,000");
    await page.getByRole("button", { name: "Next" }).click();
    expect(await text("#page-info")).toBe("Rows 101–200 of 10,000");
    expect(await page.locator("#transactions tbody tr").first().getAttribute("data-index")).toBe("100");

    // Search: a balance printed on exactly one row finds that row.
    const target = json.transactions[7321];
    if (!target) throw new Error("row 7321 exists");
    const hits = json.transactions.filter((t) => `${t.date.slice(0, 10)} ${t.narration} ${t.reference} ${t.debit} ${t.credit}`.toLowerCase().includes((target.debit !== "0.00" ? target.debit : target.credit).toLowerCase()));
    await page.getByLabel("Search").fill(target.debit !== "0.00" ? target.debit : target.credit);
    // "of N (filtered …" only once the debounced search has run ("of 1" alone would match "of 10,000").
    await page.waitForFunction((n) => (document.querySelector("#page-info")?.textContent ?? "").includes(`of ${n.toLocaleString("en")} (filtered from`), hits.length);
    expect(await page.locator("#transactions tbody tr").count()).toBe(Math.min(100, hits.length));
    expect(await text("#page-info")).toContain("filtered from 10,000");

    // Sort by amount, largest first: the first row carries the statement's largest amount.
    await page.getByLabel("Search").fill("");
    await page.waitForFunction(() => (document.querySelector("#page-info")?.textContent ?? "") === "Rows 1–100 of 10,000");
    await page.getByLabel("Sort").selectOption("amount-desc");
    const toKobo = (s: string) => BigInt(s.replace(".", ""));
    const largest = json.transactions.reduce((m, t) => {
      const a = toKobo(t.debit) > toKobo(t.credit) ? toKobo(t.debit) : toKobo(t.credit);
      return a > m ? a : m;
    }, 0n);
    const first = page.locator("#transactions tbody tr").first();
    const shown = ((await first.locator("td").nth(3).textContent()) || (await first.locator("td").nth(4).textContent()) || "").replace(/,/g, "");
    expect(toKobo(shown)).toBe(largest);

    // Balances in the hundreds of millions: the money axis is as wide as its widest label.
    await page.locator("#charts").screenshot({ path: join(ARTIFACTS, "web-10000-rows-charts.png") });

    // At phone width nothing scrolls sideways: each row is a card whose amounts stay on screen.
    await page.setViewportSize({ width: 375, height: 800 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const wrap = await page.locator("#table-wrap").evaluate((e) => ({ scroll: e.scrollWidth, client: e.clientWidth }));
    expect(wrap.scroll).toBeLessThanOrEqual(wrap.client);
    const rights = await page.locator("#transactions tbody td.num:not(:empty)").evaluateAll((cells) => cells.map((c) => c.getBoundingClientRect().right));
    expect(Math.max(...rights)).toBeLessThanOrEqual(375);
    expect(await page.locator(".scroll-hint").isVisible()).toBe(false);
    await page.screenshot({ path: join(ARTIFACTS, "web-10000-rows-phone.png"), fullPage: false });
  }, 180_000);
});

describe("charts", () => {
  test("the balance over time and money in/out per month are drawn on canvases", async () => {
    await submit(page, { file: join(SAMPLES, "opay.pdf"), output: "json" });
    await page.locator("#result").waitFor({ state: "visible" });
    await page.locator("#charts canvas").first().waitFor();
    expect(await page.locator("#charts figure").count()).toBe(2);
    expect(await page.locator("#charts figcaption").allTextContents()).toEqual(["Balance over time", "Money in and out per month"]);
    // Each canvas has ink on it (not a blank drawing surface).
    const inked = await page.locator("#charts canvas").evaluateAll((canvases) =>
      canvases.map((c) => {
        const canvas = c as HTMLCanvasElement;
        const data = canvas.getContext("2d")?.getImageData(0, 0, canvas.width, canvas.height).data ?? new Uint8ClampedArray();
        let n = 0;
        for (let i = 3; i < data.length; i += 4) if ((data[i] ?? 0) > 0) n++;
        return n;
      }),
    );
    expect(inked.length).toBe(2);
    for (const n of inked) expect(n).toBeGreaterThan(500);
    await page.locator("#charts").screenshot({ path: join(ARTIFACTS, "web-charts.png") });
  });
});

describe("one parse, many outputs", () => {
  test("a JSON job also downloads its CSV, equal to the server's CSV of the same statement", async () => {
    const file = join(SAMPLES, "zenith.pdf");
    const csv = await client.parse(new Uint8Array(readFileSync(file)), { format: "csv" });
    const before = await client.usage();
    await submit(page, { file, output: "json" });
    await page.locator("#result").waitFor({ state: "visible" });
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download CSV" }).click()]);
    expect(download.suggestedFilename()).toBe("zenith.csv");
    expect(readFileSync((await download.path()) as string, "utf8")).toBe(csv);
    // One parse was counted for the page's job, not two.
    await page.waitForFunction(() => /\d+ of \d+/.test(document.querySelector("#usage-list")?.textContent ?? ""));
    expect((await client.usage()).period_parses).toBe(before.period_parses + 1);
  });

  test("a redacted XLSX downloads as .xlsx", async () => {
    await submit(page, { file: join(SAMPLES, "opay.xlsx"), output: "redact" });
    await page.locator("#result").waitFor({ state: "visible" });
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download redacted document" }).click()]);
    expect(download.suggestedFilename()).toBe("opay.redacted.xlsx");
    expect(readFileSync((await download.path()) as string).subarray(0, 2).toString("latin1")).toBe("PK");
  });

  test("a redacted HTML .xls export downloads as .xls", async () => {
    const file = join(scratch, "uba-export.xls");
    writeFileSync(file, readFileSync(join(ROOT, "fixtures/uba-html-xls", readdirSync(join(ROOT, "fixtures/uba-html-xls")).find((f) => f.startsWith("statement")) ?? "")));
    await submit(page, { file, output: "redact" });
    await page.locator("#result").waitFor({ state: "visible" });
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download redacted document" }).click()]);
    expect(download.suggestedFilename()).toBe("uba-export.redacted.xls");
  });
});

describe("cancel", () => {
  test("Cancel stops a running job: the page says so and nothing is counted", async () => {
    // One worker and a long statement, so the job is still reading pages when Cancel is pressed.
    const slow = await startTestServer({ TEST_MONTHLY_CAP: "1000", WORKERS: "1" });
    const res = await slow.admin("/v1/keys/test", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ owner: unique("web-cancel") }) });
    const slowKey = ((await res.json()) as { key: string }).key;
    const file = join(scratch, "long.pdf");
    writeFileSync(file, await statementPdf(1000));
    await submit(page, { url: slow.url, key: slowKey, file, output: "json" });
    await page.waitForFunction(() => /^Reading pages: \d+ of \d+/.test(document.querySelector("#progress-text")?.textContent ?? ""), undefined, { timeout: 60_000 });
    expect(await text("#progress-timing")).toMatch(/\d+ of \d+ pages · Elapsed \d+:\d\d/);
    await page.getByRole("button", { name: "Cancel" }).click();
    await page.locator("#error").waitFor({ state: "visible" });
    expect(await text("#error-text")).toBe("The parse was cancelled. Nothing was counted.");
    expect(await text("#error-detail")).toContain("job_cancelled");
    expect(await page.locator("#result").isVisible()).toBe(false);
    const usage = await createClient({ baseUrl: slow.url, apiKey: slowKey }).usage();
    expect(usage.period_parses).toBe(0);
  }, 180_000);
});

describe("a statement with several accounts", () => {
  test("shows a tab per account section, each with its own rows", async () => {
    const wild = join(ROOT, "fixtures/wild");
    const multi = readdirSync(wild).find((d) => {
      try {
        return ((JSON.parse(readFileSync(join(wild, d, "expected.json"), "utf8")) as { accounts?: unknown[] }).accounts?.length ?? 0) > 1 && readdirSync(join(wild, d)).includes("statement.pdf");
      } catch {
        return false;
      }
    });
    if (!multi) throw new Error("the wild corpus has a multi-account PDF");
    const file = join(wild, multi, "statement.pdf");
    const json = (await client.parse(new Uint8Array(readFileSync(file)))) as unknown as { accounts: { transactions: unknown[]; metadata: { account_number_masked: string } }[] };
    await submit(page, { file, output: "json" });
    await page.locator("#result").waitFor({ state: "visible" });
    const tabs = page.getByRole("tab");
    expect(await tabs.count()).toBe(json.accounts.length);
    for (let i = 0; i < json.accounts.length; i++) {
      const section = json.accounts[i];
      if (!section) continue;
      await tabs.nth(i).click();
      expect(await tabs.nth(i).getAttribute("aria-selected")).toBe("true");
      expect(await text("#metadata")).toContain(section.metadata.account_number_masked);
      expect(await text("#page-info")).toContain(`of ${section.transactions.length.toLocaleString("en")}`);
    }
    await page.screenshot({ path: join(ARTIFACTS, "web-accounts-tabs.png"), fullPage: true });
  });
});

describe("small things", () => {
  test("the key placeholder names the key's prefix and a favicon is served", async () => {
    await page.goto(server.url);
    expect(await page.getByLabel("Your API key").getAttribute("placeholder")).toBe("stp_…");
    const icon = await server.fetch("/favicon.svg");
    expect(icon.status).toBe(200);
    expect(icon.headers.get("content-type")).toBe("image/svg+xml");
    expect(await icon.text()).toContain("<svg");
    expect(await page.locator('link[rel="icon"]').getAttribute("href")).toBe("/favicon.svg");
  });
});
