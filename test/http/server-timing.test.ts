import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { startTestServer } from "../helpers/server.ts";

/** POST /v1/parse says where its time went (Server-Timing): the whole parse and, within it, writing the answer. */
const FIRSTBANK = new Uint8Array(readFileSync(new URL("../../fixtures/real/firstbank.pdf", import.meta.url)));
const server = await startTestServer();

const durations = (header: string | null): Record<string, number> =>
  Object.fromEntries((header ?? "").split(",").map((entry) => [entry.trim().split(";")[0], Number(/dur=([\d.]+)/.exec(entry)?.[1])]));

test("a parse answers Server-Timing with parse and answer durations; the answer is part of the parse", async () => {
  const key = ((await (await server.admin("/v1/keys/test", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ owner: "timing" }) })).json()) as { key: string }).key;
  for (const query of ["", "?include=insights"]) {
    const form = new FormData();
    form.append("pdf", new Blob([FIRSTBANK], { type: "application/pdf" }), "statement.pdf");
    const t0 = performance.now();
    const res = await server.fetch(`/v1/parse${query}`, { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form });
    const wall = performance.now() - t0;
    expect(res.status).toBe(200);
    const d = durations(res.headers.get("server-timing"));
    expect(d.parse).toBeGreaterThan(0);
    expect(d.answer).toBeGreaterThan(0);
    expect(d.answer).toBeLessThanOrEqual(d.parse!);
    expect(d.parse).toBeLessThanOrEqual(wall);
  }
});
