import { describe, expect, test } from "bun:test";
import { startTestServer } from "../helpers/server.ts";
import { postParse, rssMiB, testKey, type ParseAnswer } from "./client.ts";
import { hostileCases, sample } from "./generate.ts";

/**
 * Every hostile file over real HTTP, one after another: each ends in its expected status and error
 * class (or the right 200) within the parse time limit, and afterwards the server still parses a
 * real statement correctly and its memory has come back down.
 */
const PARSE_TIMEOUT_MS = 30_000;
/** Time on top of the parse limit for the upload, the queue and a machine shared with other suites. */
const SLACK_MS = 15_000;
/** Growth of RSS tolerated after all cases, once garbage is collected: pdf.js and exceljs keep caches per thread. */
const RSS_GROWTH_MIB = 400;

const server = await startTestServer({ PARSE_TIMEOUT_MS: String(PARSE_TIMEOUT_MS), TEST_MONTHLY_CAP: "100000" });
const key = await testKey(server);

const baselines = new Map<string, ParseAnswer>();
for (const name of ["firstbank.pdf", "zenith.pdf", "opay.xlsx"]) baselines.set(name, await postParse(server, key, sample(name), name));
const rssBefore = rssMiB();

describe("baselines", () => {
  test("the real statements parse (200) before any hostile input", () => {
    for (const [name, a] of baselines) {
      expect(a.status, name).toBe(200);
      expect((a.json?.transactions as unknown[]).length, name).toBeGreaterThan(0);
    }
  });
});

describe("hostile uploads over HTTP", () => {
  for (const c of hostileCases()) {
    test(`${c.name} (${c.filename}, ${c.bytes.length} bytes) -> ${c.statuses.join("/")} ${c.classes.filter(Boolean).join("|")}`, async () => {
      const a = await postParse(server, key, c.bytes, c.filename);
      const detail = `${c.filename}: ${a.status} ${a.body.slice(0, 300)}`;
      expect(c.statuses, detail).toContain(a.status);
      expect(a.ms, detail).toBeLessThan(PARSE_TIMEOUT_MS + SLACK_MS);
      if (a.status === 200) {
        if (c.sameAs) expect(a.json, detail).toEqual(baselines.get(c.sameAs)?.json);
        else expect(a.json?.transactions, detail).toBeDefined();
        return;
      }
      expect(a.status, detail).toBeGreaterThanOrEqual(400);
      expect(a.status, detail).toBeLessThan(500);
      const errorClass = (a.json?.error_class as string | undefined) ?? null;
      expect(c.classes, detail).toContain(errorClass);
      if (errorClass !== null) expect(typeof a.json?.error, detail).toBe("string");
      else expect(Array.isArray(a.json?.detail), detail).toBe(true);
    });
  }

  test("entity tricks never leak host files into a response", async () => {
    const xxe = hostileCases().find((c) => c.filename === "xxe.xlsx");
    const a = await postParse(server, key, xxe!.bytes, "xxe.xlsx");
    expect(a.body).not.toContain("root:");
    expect(a.body).not.toContain("lollollol");
  });
});

describe("afterwards", () => {
  test("the server still parses a real statement, with the same result as before", async () => {
    for (const name of ["firstbank.pdf", "opay.xlsx"]) {
      const a = await postParse(server, key, sample(name), name);
      expect(a.status, name).toBe(200);
      expect(a.json, name).toEqual(baselines.get(name)?.json);
    }
    expect((await server.fetch("/healthz")).status).toBe(200);
  });

  test(`RSS came back down (within ${RSS_GROWTH_MIB} MiB of where it was before the hostile files)`, async () => {
    // Let the pool's threads finish cleanup and the allocator return memory.
    await Bun.sleep(500);
    const after = rssMiB();
    console.log(`hostile: RSS before ${rssBefore} MiB, after ${after} MiB`);
    expect(after).toBeLessThan(rssBefore + RSS_GROWTH_MIB);
  });
});
