/**
 * The page's insights in a real browser (Debian's chromium through playwright-core) against a real
 * server: after a parse the insights panel shows salary, charges, lenders, betting and money in/out
 * by month, fetched from the job's result with include=insights; the table gains a Category column
 * whose filter narrows the rows. A screenshot is kept in test-artifacts/web-insights.png.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
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
});
