/**
 * The page with a batch, in a real browser (Debian's chromium through playwright-core) against a
 * real server: three statements queued at once, each with its progress and verdict, one combined
 * CSV and XLSX of the batch; the verdict headline, the bank by name, the scroll to the result, and
 * the amounts at phone width. Screenshots go to test-artifacts/.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import ExcelJS from "exceljs";
import type { BrowserContext, Page } from "playwright-core";
import { OUTPUT_COLUMNS } from "../../src/engine/statement-rows.ts";
import { createClient } from "../../src/index.ts";
import { statementHeadline } from "../../web/verdict.ts";
import type { ParseResponse as PageResponse } from "../../web/types.ts";
import { launchBrowser } from "../helpers/browser.ts";
import { unique } from "../helpers/db.ts";
import { startTestServer } from "../helpers/server.ts";

const ROOT = resolve(import.meta.dir, "../..");
const SAMPLES = join(ROOT, "fixtures/real");
const ARTIFACTS = join(ROOT, "test-artifacts");
mkdirSync(ARTIFACTS, { recursive: true });
const FILES = ["opay.pdf", "firstbank.pdf", "zenith.pdf"].map((f) => join(SAMPLES, f));

const server = await startTestServer({ TEST_MONTHLY_CAP: "1000" });
const issued = await server.admin("/v1/keys/test", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ owner: unique("web-batch") }) });
const key = ((await issued.json()) as { key: string }).key;
const client = createClient({ baseUrl: server.url, apiKey: key });
const parsed = await Promise.all(FILES.map((f) => client.parse(new Uint8Array(readFileSync(f)))));
const csvs = await Promise.all(FILES.map((f) => client.parse(new Uint8Array(readFileSync(f)), { format: "csv" })));
const banks = (await client.banks()).banks;

const context: BrowserContext = await launchBrowser({ width: 1100, height: 900 });
let page: Page;
beforeEach(async () => {
  for (const p of context.pages()) await p.close();
  page = await context.newPage();
});

async function queueAndParse(p: Page, files: string[]) {
  await p.goto(server.url);
  await p.getByLabel("Your API key").fill(key);
  await p.getByLabel("Your API key").press("Tab");
  await p.locator("#file").setInputFiles(files);
  await p.getByRole("button", { name: "Parse statements" }).click();
  await p.waitForFunction((n) => document.querySelectorAll('#queue li[data-state="done"]').length === n, files.length, { timeout: 90_000 });
}

const rowsOf = (csv: string) => csv.trimEnd().split("\r\n").slice(1);

describe("a batch of three statements", () => {
  test("queues three files, shows each one's progress and verdict, and downloads one combined CSV and XLSX", async () => {
    await page.goto(server.url);
    await page.getByLabel("Your API key").fill(key);
    await page.getByLabel("Your API key").press("Tab");
    await page.locator("#file").setInputFiles(FILES);
    await page.waitForFunction(() => document.querySelectorAll("#queue li").length === 3);
    expect(await page.locator("#file-name").textContent()).toMatch(/^3 files \(\d[\d,]* KB\)$/);
    expect(await page.locator("#queue li").count()).toBe(3);
    expect(await page.locator("#queue .q-status").allTextContents()).toEqual(["Waiting", "Waiting", "Waiting"]);
    await page.screenshot({ path: join(ARTIFACTS, "web-batch-queued.png"), fullPage: true });

    await page.getByRole("button", { name: "Parse statements" }).click();
    await page.waitForFunction(() => document.querySelectorAll('#queue li[data-state="done"]').length === 3, undefined, { timeout: 90_000 });

    // Each row: its transactions and the verdict the page's rule gives its statement.
    for (const [i, r] of parsed.entries()) {
      const row = page.locator("#queue li").nth(i);
      const sections = r.accounts.length > 0 ? r.accounts : [r];
      const rows = sections.reduce((n, s) => n + s.transactions.length, 0).toLocaleString("en");
      expect(await row.locator(".q-status").textContent()).toBe(sections.length > 1 ? `${rows} transactions in ${sections.length} accounts` : `${rows} transactions`);
      expect(await row.locator(".q-verdict").textContent()).toBe(statementHeadline(r as unknown as PageResponse).short);
      expect(await row.locator("progress").getAttribute("value")).toBe("100");
    }
    expect(await page.locator("#batch-summary").textContent()).toBe("3 files: 3 parsed, 0 failed");

    // One CSV: the header once, then each statement's rows as the server writes them, in queue order.
    const [csvDownload] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download batch CSV" }).click()]);
    expect(csvDownload.suggestedFilename()).toBe("statements.csv");
    const combined = readFileSync((await csvDownload.path()) as string, "utf8");
    const lines = combined.trimEnd().split("\r\n");
    expect(lines[0]).toBe(OUTPUT_COLUMNS.join(","));
    expect(lines.slice(1)).toEqual(csvs.flatMap(rowsOf));
    expect(combined).toBe(csvs[0] + csvs.slice(1).map((c) => `${rowsOf(c).join("\r\n")}\r\n`).join(""));

    // One workbook: every row under the same columns, typed amounts.
    // The workbook writer (exceljs) is bundled on its first request: slow on a busy machine.
    const [xlsxDownload] = await Promise.all([page.waitForEvent("download", { timeout: 120_000 }), page.getByRole("button", { name: "Download batch XLSX" }).click()]);
    expect(xlsxDownload.suggestedFilename()).toBe("statements.xlsx");
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(readFileSync((await xlsxDownload.path()) as string) as unknown as ArrayBuffer);
    const sheet = book.getWorksheet("Transactions");
    if (!sheet) throw new Error("the workbook has a Transactions sheet");
    const total = parsed.reduce((a, r) => a + (r.accounts.length > 0 ? r.accounts : [r]).reduce((n, s) => n + s.transactions.length, 0), 0);
    expect(sheet.rowCount).toBe(total + 1);
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual([...OUTPUT_COLUMNS]);
    const bankColumn = new Set<unknown>();
    sheet.eachRow((row, n) => {
      if (n > 1) bankColumn.add(row.getCell(1).value);
    });
    expect(bankColumn).toEqual(new Set(parsed.map((r) => r.metadata.bank)));
    // The server's typing survives the merge: a real date and a number with its format.
    const col = (name: string) => OUTPUT_COLUMNS.indexOf(name as (typeof OUTPUT_COLUMNS)[number]) + 1;
    const last = sheet.getRow(sheet.rowCount);
    expect(last.getCell(col("date")).value).toBeInstanceOf(Date);
    expect(typeof last.getCell(col("balance")).value).toBe("number");
    expect(last.getCell(col("balance")).numFmt).toBe("#,##0.00");
    expect(book.getWorksheet("Summary")).toBeDefined();
    await page.screenshot({ path: join(ARTIFACTS, "web-batch-done.png"), fullPage: true });
  }, 180_000);

  test("three files dropped at once are all queued", async () => {
    await page.goto(server.url);
    const payload = FILES.map((f) => ({ name: f.split("/").at(-1) ?? "x.pdf", bytes: [...readFileSync(f)] }));
    const drop = await page.evaluateHandle((files) => {
      const dt = new DataTransfer();
      for (const f of files) dt.items.add(new File([new Uint8Array(f.bytes)], f.name, { type: "application/pdf" }));
      return dt;
    }, payload);
    await page.locator("#drop-zone").dispatchEvent("drop", { dataTransfer: drop });
    expect(await page.locator("#queue .q-name").allTextContents()).toEqual(["opay.pdf", "firstbank.pdf", "zenith.pdf"]);
    expect(await page.locator("#file-name").textContent()).toMatch(/^3 files /);
  });
});

describe("the result of one statement", () => {
  test("scrolls into view, names the bank, and gives one headline with its reasons", async () => {
    await queueAndParse(page, [FILES[1] ?? ""]);
    await page.locator("#result").waitFor({ state: "visible" });
    // The page moved to the result.
    const top = await page.locator("#result").evaluate((e) => e.getBoundingClientRect().top);
    expect(Math.abs(top)).toBeLessThan(5);
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    const r = parsed[1];
    if (!r) throw new Error("firstbank parsed");
    const name = banks.find((b) => b.id === r.metadata.bank)?.name;
    expect(name).toBeDefined();
    expect(await page.locator("#metadata").textContent()).toContain(`${name} (${r.metadata.bank})`);
    const h = statementHeadline(r as unknown as PageResponse);
    expect(await page.locator("#badge").textContent()).toBe(h.text);
    expect(await page.locator("#badge").getAttribute("data-level")).toBe(h.level);
    // Green only when the engine verified the figures and the document shows no sign of editing.
    expect(h.level === "ok").toBe(r.checks.verdict === "verified" && (r.integrity?.verdict ?? "no_signals") === "no_signals");
    expect(await page.locator("#verdict-reasons li").allTextContents()).toEqual(h.reasons);
    await page.screenshot({ path: join(ARTIFACTS, "web-result-scrolled.png") });
  }, 120_000);

  test("at 390 px wide every amount of the table stays on screen", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await queueAndParse(page, [FILES[0] ?? ""]);
    await page.locator("#result").waitFor({ state: "visible" });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const boxes = await page.locator("#transactions tbody td.num:not(:empty)").evaluateAll((cells) => cells.map((c) => c.getBoundingClientRect().right));
    expect(boxes.length).toBeGreaterThan(0);
    for (const right of boxes) expect(right).toBeLessThanOrEqual(390);
    await page.locator("#table-wrap").scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, "web-390-table.png") });
    await page.locator("#charts").scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, "web-390-charts.png") });
  }, 120_000);
});
