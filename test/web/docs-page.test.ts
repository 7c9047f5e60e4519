/**
 * /docs in a real browser (issue 27 item 6): operations grouped with Parse first, descriptions
 * rendered from Markdown (code spans, bold, lists) as elements, schemas as tables of fields with
 * links between them, and each operation's auth, example request and example responses shown.
 */
import { afterAll, describe, expect, test } from "bun:test";
import type { BrowserContext } from "playwright-core";
import { launchBrowser } from "../helpers/browser.ts";
import { startTestServer } from "../helpers/server.ts";

const server = await startTestServer();
const context: BrowserContext = await launchBrowser({ width: 1100, height: 900 });
afterAll(() => context.close());

describe("/docs", () => {
  test("Parse first, Markdown rendered, schemas as tables, auth and examples shown", async () => {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(`${server.url}/docs`);
    await page.waitForSelector("h2");
    const groups = await page.$$eval("main > h2", (hs) => hs.map((h) => h.textContent));
    expect(groups[0]).toBe("Parse");
    expect(groups.at(-1)).toBe("Schemas");

    // POST /v1/parse: its Auth line in bold, code spans as <code>, the curl request, an example body.
    const op = page.locator("#op-post-v1-parse");
    await op.locator("summary").first().click();
    expect(await op.locator(".md strong").first().textContent()).toBe("Auth:");
    expect(await op.locator(".md code").allTextContents()).toContain("Idempotency-Key");
    expect(await op.locator("pre").first().textContent()).toStartWith("curl -X POST");
    // No raw Markdown left in the rendered text.
    expect(await op.locator(".md").first().textContent()).not.toContain("**");

    // The ParseResponse schema is a table of fields; its Metadata reference is a link that opens that schema.
    const schema = page.locator("#schema-ParseResponse");
    await schema.locator("summary").click();
    const fields = await schema.locator("td > code").allTextContents();
    for (const f of ["format_version", "metadata", "transactions", "checks"]) expect(fields).toContain(f);
    await schema.locator("a[href='#schema-Metadata']").first().click();
    expect(await page.locator("#schema-Metadata").getAttribute("open")).not.toBeNull();
    // Its bank field names the BankId schema, whose values are listed.
    await page.locator("#schema-Metadata a[href='#schema-BankId']").click();
    expect(await page.locator("#schema-BankId .enum").textContent()).toContain("gtbank");

    // Error classes are listed as an enum.
    await page.locator("#schema-ErrorClass summary").click();
    expect(await page.locator("#schema-ErrorClass .enum").textContent()).toContain("idempotency_key_reused");
    expect(errors).toEqual([]);
    await page.close();
  });
});
