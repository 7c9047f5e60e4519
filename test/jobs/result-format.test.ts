import { describe, expect, test } from "bun:test";
import { startTestServer } from "../helpers/server.ts";
import { form, get, newKey, post, sample, submit, waitFinished } from "./support/http.ts";

const server = await startTestServer({ TEST_MONTHLY_CAP: "100000" });
const periodParses = async (key: string) => ((await (await get(server, "/v1/usage", key)).json()) as { period_parses: number }).period_parses;

describe("GET /v1/parse/jobs/{id}/result?format= (one parse, many outputs)", () => {
  test("a json job's parse as CSV and a csv job's as JSON, equal to parsing in that format, and no parse is counted twice", async () => {
    const { key } = await newKey(server);
    const bytes = await sample("firstbank.pdf");
    const jsonJob = await submit(server, key, form(bytes));
    const csvJob = await submit(server, key, form(bytes), "?format=csv");
    const jsonSnap = await waitFinished(server, key, jsonJob.job_id);
    const csvSnap = await waitFinished(server, key, csvJob.job_id);
    expect([jsonSnap.state, csvSnap.state]).toEqual(["done", "done"]);
    expect(await periodParses(key)).toBe(2);

    const asCsv = await get(server, `${jsonJob.poll_url}/result?format=csv`, key);
    expect(asCsv.status).toBe(200);
    expect(asCsv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const csv = await asCsv.text();
    const ownCsv = await (await get(server, `${csvJob.poll_url}/result`, key)).text();
    expect(csv).toBe(ownCsv);
    expect(csv.trimEnd().split("\r\n").length).toBe((jsonSnap.result as { transactions: unknown[] }).transactions.length + 1);

    const asJson = await get(server, `${csvJob.poll_url}/result?format=json`, key);
    expect(asJson.status).toBe(200);
    expect(asJson.headers.get("content-type")).toStartWith("application/json");
    expect(await asJson.json()).toEqual(jsonSnap.result);
    // The job's own format, asked for by name, is what it always was.
    expect(await (await get(server, `${jsonJob.poll_url}/result?format=json`, key)).json()).toEqual(jsonSnap.result);
    expect(await (await get(server, `${csvJob.poll_url}/result?format=csv`, key)).text()).toBe(ownCsv);

    // The sync endpoint's CSV of the same document is byte for byte the converted one.
    const sync = await post(server, "/v1/parse?format=csv", key, form(bytes));
    expect(await sync.text()).toBe(csv);
    // Two jobs and one sync parse: the four conversions above counted nothing.
    expect(await periodParses(key)).toBe(3);
  }, 60_000);

  test("a redact job has no parse to convert (422); an unknown format is 422", async () => {
    const { key } = await newKey(server);
    const redact = await submit(server, key, form(await sample("opay.pdf"), { redact: "true" }));
    await waitFinished(server, key, redact.job_id);
    const res = await get(server, `${redact.poll_url}/result?format=csv`, key);
    expect(res.status).toBe(422);
    expect(((await res.json()) as { detail: { loc: string[] }[] }).detail[0]!.loc).toEqual(["query", "format"]);
    expect((await get(server, `${redact.poll_url}/result`, key)).headers.get("content-type")).toBe("application/pdf");
    const bad = await get(server, `${redact.poll_url}/result?format=xml`, key);
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { detail: { loc: string[] }[] }).detail[0]!.loc).toEqual(["query", "format"]);
  }, 60_000);
});
