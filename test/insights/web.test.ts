/**
 * The page's insights in a real browser (Debian's chromium through playwright-core) against a real
 * server: after a parse the insights panel shows salary, charges, lenders, betting and money in/out
 * by month, fetched from the job's result with include=insights; the table gains a Category column
 * whose filter narrows the rows. A screenshot is kept in test-artifacts/web-insights.png.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { statementPdf } from "../../bench/generate.ts";
import { launchBrowser } from "../helpers/browser.ts";
import { unique } from "../helpers/db.ts";
import { startTestServer } from "../helpers/server.ts";

const ROOT = resolve(import.meta.dir, "../..");
const ARTIFACTS = join(ROOT, "test-artifacts");
mkdirSync(ARTIFACTS, { recursive: true });

const server = await startTestServer({ TEST_MONTHLY_CAP: "1000" });
const issued = await server.admin("/v1/keys/test", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ owner: unique("web-insights") }) });
const key = ((await issued.json()) as { key: string }).key;
const context = await launchBrowser({ width: 1280, height: 900 });

describe("insights on the page", () => {
  test("the panel, the Category column and its filter", async () => {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    // Under load the bundle may arrive late: a click before it would submit the form natively.
    await page.goto(server.url, { waitUntil: "networkidle" });
    await page.getByLabel("Your API key").fill(key);
    await page.getByLabel("Your API key").press("Tab");
    await page.locator("#file").setInputFiles(join(ROOT, "fixtures/polaris/statement.pdf"));
    await page.getByLabel("JSON").check();
    await page.getByRole("button", { name: "Parse statement" }).click();
    const panel = page.locator("#insights");
    await panel.waitFor({ state: "visible", timeout: 60_000 });
    const text = (await panel.textContent()) ?? "";
    for (const heading of ["Salary", "Charges and levies", "Lenders", "Betting", "Money in and out by month"]) expect(text).toContain(heading);
    expect(text).toMatch(/LAGOS STATE GOVT|SALARY/);
    expect(await page.locator("#insights .insight-months tbody tr").count()).toBeGreaterThan(0);
    await expect(page.locator("#transactions thead th").last().textContent()).resolves.toBe("Category");
    const cells = await page.locator("#transactions tbody td.category").allTextContents();
    expect(cells.length).toBeGreaterThan(5);
    expect(new Set(cells).size).toBeGreaterThan(2);

    const before = await page.locator("#transactions tbody tr").count();
    await page.locator("#category-filter").selectOption("bank_charge");
    const filtered = await page.locator("#transactions tbody td.category").allTextContents();
    expect(filtered.length).toBeGreaterThan(0);
    expect(filtered.length).toBeLessThan(before);
    expect(new Set(filtered)).toEqual(new Set(["bank charge"]));
    expect(await page.locator("#page-info").textContent()).toContain("filtered from");
    await page.screenshot({ path: join(ARTIFACTS, "web-insights.png"), fullPage: true });

    await page.locator("#category-filter").selectOption("");
    expect(await page.locator("#transactions tbody tr").count()).toBe(before);
    expect(errors).toEqual([]);
  }, 120_000);

  test("insights that arrive after the reader paged on keep the page they are on", async () => {
    const page = await context.newPage();
    // The insights request is held in the browser until the reader has gone to page 2.
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    await page.route(/include=insights/, async (route) => {
      await released;
      await route.continue();
    });
    await page.goto(server.url, { waitUntil: "networkidle" });
    await page.getByLabel("Your API key").fill(key);
    await page.getByLabel("Your API key").press("Tab");
    // Six pages of the bench statement: more than one page of the table (100 rows).
    await page.locator("#file").setInputFiles({ name: "six-pages.pdf", mimeType: "application/pdf", buffer: Buffer.from(await statementPdf(6)) });
    await page.getByLabel("JSON").check();
    await page.getByRole("button", { name: "Parse statement" }).click();
    await page.locator("#result").waitFor({ state: "visible", timeout: 60_000 });
    const info = page.locator("#page-info");
    const total = /of ([\d,]+)/.exec((await info.textContent()) ?? "")?.[1] ?? "";
    expect(Number(total.replace(/,/g, ""))).toBeGreaterThan(100);
    await page.getByRole("button", { name: "Next" }).click();
    expect(await info.textContent()).toStartWith("Rows 101–");
    release();
    await page.locator("#transactions thead th", { hasText: "Category" }).waitFor({ timeout: 60_000 });
    expect(await info.textContent()).toStartWith("Rows 101–");
    expect(await page.locator("#transactions tbody tr").first().getAttribute("data-index")).toBe("100");
    expect(await page.locator("#transactions tbody td.category").count()).toBeGreaterThan(0);
  }, 120_000);
});
