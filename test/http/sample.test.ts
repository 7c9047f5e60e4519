import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import JSZip from "jszip";
import { createClient } from "../../src/index.ts";
import { unique } from "../helpers/db.ts";
import { contractFetch, startTestServer, type TestServer } from "../helpers/server.ts";

/**
 * The canned sample past a test key's cap is honest: it stands in only for a statement the engine
 * would read (a .docx, an image or an empty file gets its real 422), it says `sample: true` in its
 * JSON as well as X-Sample, and its dates are in the form real parses use. Real servers on loopback.
 */
const real = (name: string) => new Uint8Array(readFileSync(new URL(`../../fixtures/real/${name}`, import.meta.url)));
const FIRSTBANK = real("firstbank.pdf");
/** Seconds precision with the Lagos offset, as src/engine/dates.ts writes every parsed date. */
const LAGOS_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+01:00$/;

async function docx(): Promise<Uint8Array<ArrayBuffer>> {
  const zip = new JSZip();
  zip.file("[Content_Types].xml", '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>');
  zip.file("word/document.xml", '<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Statement of account</w:t></w:r></w:p></w:body></w:document>');
  return new Uint8Array(await zip.generateAsync({ type: "uint8array" }));
}
/** The 8-byte PNG signature and an IHDR chunk: an image, not a statement. */
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0, 0x1f, 0x15, 0xc4, 0x89]);

// TEST_MONTHLY_CAP=0: every parse with a test key is past the cap.
const capped = await startTestServer({ TEST_MONTHLY_CAP: "0" });
const open = await startTestServer({ TEST_MONTHLY_CAP: "1000" });

async function testKey(server: TestServer): Promise<string> {
  const res = await server.admin("/v1/keys/test", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ owner: unique("sample") }) });
  expect(res.status).toBe(200);
  return ((await res.json()) as { key: string }).key;
}

function upload(server: TestServer, key: string, bytes: Uint8Array<ArrayBuffer>, name: string, path = "/v1/parse"): Promise<Response> {
  const form = new FormData();
  form.append("pdf", new Blob([bytes]), name);
  return server.fetch(path, { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form });
}

const usageOf = async (server: TestServer, key: string) => ((await (await server.fetch("/v1/usage", { headers: { authorization: `Bearer ${key}` } })).json()) as { period_parses: number }).period_parses;

describe("past the test cap", () => {
  test("a statement gets the sample, with sample: true in its JSON and X-Sample", async () => {
    const res = await upload(capped, await testKey(capped), FIRSTBANK, "firstbank.pdf");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-sample")).toBe("true");
    const body = (await res.json()) as { sample?: boolean; metadata: { bank: string } };
    expect(body.sample).toBe(true);
    expect(body.metadata.bank).toBe("sample");
  });

  test("a .docx gets 422 unsupported_format, not the sample, and nothing is counted", async () => {
    const key = await testKey(capped);
    for (const path of ["/v1/parse", "/v1/parse/jobs"]) {
      const res = await upload(capped, key, await docx(), "statement.docx", path);
      expect(res.status).toBe(422);
      expect(res.headers.get("x-sample")).toBeNull();
      expect(((await res.json()) as { error_class: string }).error_class).toBe("unsupported_format");
    }
    expect(await usageOf(capped, key)).toBe(0);
  });

  test("an image and an empty file get their 422 too", async () => {
    const key = await testKey(capped);
    for (const [bytes, name] of [[PNG, "photo.png"], [new Uint8Array(0), "empty.pdf"]] as const) {
      const res = await upload(capped, key, bytes, name);
      expect(res.status).toBe(422);
      expect(res.headers.get("x-sample")).toBeNull();
    }
  });

  test("a password-protected workbook gets encrypted_source, as it would under the cap", async () => {
    const res = await upload(capped, await testKey(capped), real("encrypted.xlsx"), "encrypted.xlsx");
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error_class: string }).error_class).toBe("encrypted_source");
  });

  test("the typed client's job result says sample, from the JSON", async () => {
    const client = createClient({ baseUrl: capped.url, apiKey: await testKey(capped), fetch: contractFetch });
    let sample: boolean | undefined;
    for await (const ev of client.parseJob(FIRSTBANK, { filename: "firstbank.pdf" })) if (ev.type === "result" && ev.kind === "json") sample = ev.sample && ev.result.sample === true;
    expect(sample).toBe(true);
  });
});

test("the sample's dates have the form of a real parse's (+01:00)", async () => {
  const realParse = (await (await upload(open, await testKey(open), FIRSTBANK, "firstbank.pdf")).json()) as { sample?: boolean; transactions: { date: string }[] };
  expect(realParse.sample).toBeUndefined();
  expect(realParse.transactions[0]!.date).toMatch(LAGOS_DATE);
  const sample = (await (await upload(capped, await testKey(capped), FIRSTBANK, "firstbank.pdf")).json()) as { transactions: { date: string }[]; metadata: Record<string, string> };
  for (const t of sample.transactions) expect(t.date).toMatch(LAGOS_DATE);
  expect(sample.metadata.statement_period_start).toMatch(LAGOS_DATE);
  expect(sample.metadata.statement_period_end).toMatch(LAGOS_DATE);
});
