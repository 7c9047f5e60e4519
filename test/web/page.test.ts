/**
 * The page at `/` in a real browser (Debian's chromium driven by playwright-core; never a
 * downloaded browser) against a real server on loopback.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";
import type { BrowserContext, Page } from "playwright-core";
import { createClient } from "../../src/index.ts";
import type { ParseResponse as PageResponse } from "../../web/types.ts";
import { statementHeadline } from "../../web/verdict.ts";
import { launchBrowser } from "../helpers/browser.ts";
import { unique } from "../helpers/db.ts";
import { startFakePaystack } from "../helpers/paystack.ts";
import { startTestServer } from "../helpers/server.ts";

const ROOT = resolve(import.meta.dir, "../..");
const SAMPLES = join(ROOT, "fixtures/real");
const ARTIFACTS = join(ROOT, "test-artifacts");

// Paystack (a local server speaking its API) is configured, so live keys are gated as on a billed service.
const paystack = startFakePaystack();
const server = await startTestServer({ TEST_MONTHLY_CAP: "1000", PAYSTACK_BASE_URL: paystack.baseUrl, PAYSTACK_SECRET_KEY: paystack.secretKey });
const issued = await server.admin("/v1/keys/test", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ owner: unique("web") }) });
const key = ((await issued.json()) as { key: string }).key;
const client = createClient({ baseUrl: server.url, apiKey: key });

const context: BrowserContext = await launchBrowser({ width: 1100, height: 900 });

/** Every URL the page asked for: nothing may come from outside this server. */
const requested: string[] = [];
context.on("request", (r) => requested.push(r.url()));

let page: Page;
beforeEach(async () => {
  for (const p of context.pages()) await p.close();
  page = await context.newPage();
});

async function submit(p: Page, o: { key: string; file: string; output: "json" | "csv" | "redact"; password?: string }) {
  await p.goto(server.url);
  await p.getByLabel("Your API key").fill(o.key);
  await p.getByLabel("Your API key").press("Tab"); // commits it (change event → localStorage)
  await p.locator("#file").setInputFiles(o.file);
  if (o.password) await p.getByLabel(/^Password/).fill(o.password);
  await p.getByLabel(o.output === "json" ? "JSON" : o.output === "csv" ? "CSV" : "Redacted document").check();
  await p.getByRole("button", { name: "Parse statement" }).click();
}

describe("web page", () => {
  test("is served with its bundled script and styles, and a policy that forbids other origins", async () => {
    const res = await server.fetch("/");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    const js = await server.fetch("/assets/app.js");
    expect(js.headers.get("content-type")).toContain("javascript");
    const code = await js.text();
    expect(code).toContain("EventSource");
    expect(code).not.toMatch(/\binterface\b|: HTMLElement/); // bundled to JavaScript, not served as TypeScript
    expect((await server.fetch("/assets/style.css")).status).toBe(200);
  });

  test("a CSV job: progress to 100%, every row, reconciled badge, CSV download equal to the server's", async () => {
    const file = join(SAMPLES, "opay.pdf");
    const bytes = new Uint8Array(readFileSync(file));
    const [json, csv] = await Promise.all([client.parse(bytes), client.parse(bytes, { format: "csv" })]);

    // Record every text the progress line shows, to see the stream's stages go by.
    await page.addInitScript(() => {
      const log: string[] = [];
      (window as unknown as { progressLog: string[] }).progressLog = log;
      document.addEventListener("DOMContentLoaded", () => {
        const target = document.getElementById("progress-text") as HTMLElement;
        new MutationObserver(() => log.push(target.textContent ?? "")).observe(target, { childList: true, characterData: true, subtree: true });
      });
    });
    await submit(page, { key, file, output: "csv" });
    await page.locator("#result").waitFor({ state: "visible" });
    const log = await page.evaluate(() => (window as unknown as { progressLog: string[] }).progressLog);
    expect(log.some((t) => /^(Reading pages|Assembling transactions): \d+ of \d+ \(\d+%\)$/.test(t))).toBe(true);
    expect(log.at(-1)).toBe(`Done: 100% (${json.transactions.length} transactions)`);
    expect(await page.locator("#progress").getAttribute("value")).toBe("100");
    expect(await page.locator("#progress-text").textContent()).toContain("100%");
    expect(await page.locator("#transactions tbody tr").count()).toBe(json.transactions.length);
    expect(await page.locator("#row-count").textContent()).toStartWith(`${json.transactions.length} transactions`);
    // One headline over every section's figures and the document's integrity (web/verdict.ts).
    expect(await page.locator("#badge").textContent()).toBe(statementHeadline(json as unknown as PageResponse).text);
    expect(await page.locator("#metadata").textContent()).toContain(json.metadata.account_number_masked);
    // The key stayed in this browser's storage.
    expect(await page.evaluate(() => localStorage.getItem("statement-parser.api-key"))).toBe(key);

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download CSV" }).click()]);
    expect(download.suggestedFilename()).toBe("opay.csv");
    expect(readFileSync((await download.path()) as string, "utf8")).toBe(csv);

    const [jsonDownload] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download JSON" }).click()]);
    expect(JSON.parse(readFileSync((await jsonDownload.path()) as string, "utf8"))).toEqual(json);

    // The usage panel shows GET /v1/usage for this key (refreshed after the parse).
    await page.waitForFunction(() => /\d+ of \d+/.test(document.querySelector("#usage-list")?.textContent ?? ""));
    const usage = await client.usage();
    expect(await page.locator("#usage-list").textContent()).toContain(`${usage.period_parses} of ${usage.monthly_cap}`);
    expect(usage.monthly_cap).toBe(1000);

    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, "web-finished.png"), fullPage: true });
    // The page followed the job on its SSE stream, and asked nothing of any other origin.
    expect(requested.some((u) => /\/v1\/parse\/jobs\/[^/]+\/stream$/.test(u))).toBe(true);
    expect(requested.every((u) => u.startsWith(server.url) || u.startsWith("blob:") || u.startsWith("data:"))).toBe(true);
  });

  test("phone width: no sideways scrolling of the page; the table scrolls in its own box", async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    await submit(page, { key, file: join(SAMPLES, "firstbank.pdf"), output: "json" });
    await page.locator("#result").waitFor({ state: "visible" });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, "web-phone.png"), fullPage: true });
  });

  test("a statement that does not reconcile says so and marks the row where the chain breaks", async () => {
    const file = join(ROOT, "fixtures/unknown-unreconciled/statement.pdf");
    const json = await client.parse(new Uint8Array(readFileSync(file)));
    expect(json.row_wise_reconcilable).toBe(false);
    await submit(page, { key, file, output: "json" });
    await page.locator("#result").waitFor({ state: "visible" });
    expect(await page.locator("#badge").textContent()).toBe("✗ Not reconciled");
    expect(await page.locator("#badge").getAttribute("class")).toContain("bad");
    const at = json.checks.first_break_index;
    if (at === null) throw new Error("an unreconciled statement should name its first break");
    expect(await page.locator("#row-count").textContent()).toContain(`first breaks at row ${at + 1}`);
    expect(await page.locator("#transactions tbody tr.break").count()).toBe(1);
    expect(await page.locator("#transactions tbody tr").nth(at).getAttribute("class")).toBe("break");
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, "web-not-reconciled.png"), fullPage: true });
  });

  test("a file dropped on the drop zone is the one parsed", async () => {
    await page.goto(server.url);
    await page.getByLabel("Your API key").fill(key);
    const bytes = [...readFileSync(join(SAMPLES, "zenith.pdf"))];
    const drop = await page.evaluateHandle((b) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(b)], "dropped.pdf", { type: "application/pdf" }));
      return dt;
    }, bytes);
    await page.locator("#drop-zone").dispatchEvent("drop", { dataTransfer: drop });
    expect(await page.locator("#file-name").textContent()).toMatch(/^dropped\.pdf \(\d+ KB\)$/);
    await page.getByRole("button", { name: "Parse statement" }).click();
    await page.locator("#result").waitFor({ state: "visible" });
    const zenith = await client.parse(new Uint8Array(readFileSync(join(SAMPLES, "zenith.pdf"))));
    expect(await page.locator("#transactions tbody tr").count()).toBe(zenith.transactions.length);
  });

  test("a redact job offers the redacted document", async () => {
    await submit(page, { key, file: join(SAMPLES, "firstbank.pdf"), output: "redact" });
    await page.locator("#result").waitFor({ state: "visible" });
    expect(await page.locator("#download-hint").textContent()).toMatch(/\d+ items? redacted/);
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download redacted document" }).click()]);
    expect(download.suggestedFilename()).toBe("firstbank.redacted.pdf");
    expect(readFileSync((await download.path()) as string).subarray(0, 5).toString("latin1")).toBe("%PDF-");
  });

  test("past the free cap, the sample statement is labelled as such", async () => {
    const capped = await startTestServer({ TEST_MONTHLY_CAP: "0" });
    const res = await capped.admin("/v1/keys/test", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ owner: unique("web-capped") }) });
    const cappedKey = ((await res.json()) as { key: string }).key;
    await page.goto(capped.url);
    await page.getByLabel("Your API key").fill(cappedKey);
    await page.locator("#file").setInputFiles(join(SAMPLES, "firstbank.pdf"));
    await page.getByRole("button", { name: "Parse statement" }).click();
    await page.locator("#result").waitFor({ state: "visible" });
    expect(await page.locator("#sample-note").isVisible()).toBe(true);
    expect(await page.locator("#sample-note").textContent()).toContain("not your document");
    // Never green: the headline says it is the sample.
    expect(await page.locator("#badge").textContent()).not.toContain("Verified");
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.locator("#result").screenshot({ path: join(ARTIFACTS, "web-sample.png") });
  });

  test("a real parse is not labelled as a sample", async () => {
    await submit(page, { key, file: join(SAMPLES, "zenith.pdf"), output: "json" });
    await page.locator("#result").waitFor({ state: "visible" });
    expect(await page.locator("#sample-note").isVisible()).toBe(false);
  });

  test("a wrong key is explained in words", async () => {
    await submit(page, { key: "stp_test_this_key_does_not_exist_00000", file: join(SAMPLES, "firstbank.pdf"), output: "json" });
    await page.locator("#error").waitFor({ state: "visible" });
    expect(await page.locator("#error-text").textContent()).toBe("The API key was not accepted. Check it is typed correctly and has not been revoked.");
    expect(await page.locator("#error-detail").textContent()).toContain("auth_error");
    expect(await page.locator("#result").isVisible()).toBe(false);
  });

  test("a live key without a subscription is explained in words", async () => {
    const res = await server.admin("/v1/keys", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "web", owner: unique("web-live") }) });
    const liveKey = ((await res.json()) as { key: string }).key;
    await submit(page, { key: liveKey, file: join(SAMPLES, "firstbank.pdf"), output: "json" });
    await page.locator("#error").waitFor({ state: "visible" });
    expect(await page.locator("#error-text").textContent()).toBe("The subscription for this key is not active. Renew it, or use a test key.");
    expect(await page.locator("#error-detail").textContent()).toContain("subscription_inactive");
  });

  test("a PDF that is not a statement is explained as unreadable", async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    doc.addPage([595, 842]).drawText("Dear customer, thank you for banking with us.", { x: 50, y: 780, size: 12, font });
    const dir = mkdtempSync(join(tmpdir(), "web-letter-"));
    const file = join(dir, "letter.pdf");
    await Bun.write(file, await doc.save());
    await submit(page, { key, file, output: "json" });
    await page.locator("#error").waitFor({ state: "visible" });
    expect(await page.locator("#error-text").textContent()).toMatch(/^The statement (is unreadable|has no transactions)/);
    expect(await page.locator("#error-detail").textContent()).toMatch(/layout_unrecognized|empty_statement/);
    rmSync(dir, { recursive: true, force: true });
  });

  test("an encrypted statement without its password is explained in words", async () => {
    await submit(page, { key, file: join(SAMPLES, "encrypted.pdf"), output: "json" });
    await page.locator("#error").waitFor({ state: "visible" });
    expect(await page.locator("#error-text").textContent()).toContain("password-protected");
    expect(await page.locator("#error-detail").textContent()).toContain("encrypted_source");
  });
});
