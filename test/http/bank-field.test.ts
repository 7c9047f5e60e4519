import { describe, expect, test } from "bun:test";
import { listBanks } from "../../src/engine/index.ts";
import { startTestServer } from "../helpers/server.ts";
import { form, get, newKey, post, sample } from "../jobs/support/http.ts";

const server = await startTestServer({ TEST_MONTHLY_CAP: "100000" });

interface ValidationBody {
  detail: { loc: string[]; msg: string; type: string; input: unknown; ctx: { expected?: string[] } }[];
}

describe("the bank form field (SPEC 7.1)", () => {
  test("an unknown bank is the 422 validation body on both parse endpoints, naming the accepted ids; nothing is counted", async () => {
    const { key } = await newKey(server);
    const bytes = await sample("firstbank.pdf");
    for (const path of ["/v1/parse", "/v1/parse/jobs"]) {
      const res = await post(server, path, key, form(bytes, { bank: "gtbankk" }));
      expect(res.status).toBe(422);
      const body = (await res.json()) as ValidationBody;
      expect(body.detail).toHaveLength(1);
      expect(body.detail[0]).toMatchObject({ loc: ["body", "bank"], type: "enum", input: "gtbankk" });
      expect(body.detail[0]!.ctx.expected).toEqual([...listBanks().map((b) => b.id), "unknown"]);
    }
    expect(((await (await get(server, "/v1/usage", key)).json()) as { period_parses: number }).period_parses).toBe(0);
  }, 60_000);

  test("a listed bank id and `unknown` are accepted", async () => {
    const { key } = await newKey(server);
    const bytes = await sample("firstbank.pdf");
    const named = await post(server, "/v1/parse", key, form(bytes, { bank: "firstbank" }));
    expect(named.status).toBe(200);
    expect(((await named.json()) as { metadata: { bank: string } }).metadata.bank).toBe("firstbank");
    expect((await post(server, "/v1/parse", key, form(bytes, { bank: "unknown" }))).status).not.toBe(422);
  }, 60_000);
});
