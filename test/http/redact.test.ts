/**
 * Redaction over HTTP: POST /v1/parse with redact=true returns the redacted document with its
 * count in X-Redactions; a redact job reports `redactions` in its snapshot and serves the bytes at
 * its result URL. The bytes are checked like the engine tests check them.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expectNoLeaks, pdfShape } from "../engine/redact-support.ts";
import { startTestServer } from "../helpers/server.ts";
import { form, newKey, post, submit, waitFinished, get } from "../jobs/support/http.ts";

const SAMPLES = join(import.meta.dir, "../../fixtures/real");
const sample = (name: string) => Bun.file(join(SAMPLES, name)).bytes();
const server = await startTestServer({ WORKERS: "2", TEST_MONTHLY_CAP: "100000" });

describe("POST /v1/parse with redact=true", () => {
  test("returns the redacted PDF with X-Redactions", async () => {
    const { key } = await newKey(server);
    const original = await sample("zenith.pdf");
    const res = await post(server, "/v1/parse", key, form(original, { redact: "true" }));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("x-redactions")).toBe("3");
    const bytes = new Uint8Array(await res.arrayBuffer());
    await expectNoLeaks(bytes, ["TEST USER", "0000000000", "Test Address"]);
    expect((await pdfShape(bytes)).pages).toEqual((await pdfShape(original)).pages);
  });

  test("returns the redacted workbook for an XLSX", async () => {
    const { key } = await newKey(server);
    const res = await post(server, "/v1/parse", key, form(await sample("opay.xlsx"), { redact: "true" }, "statement.xlsx"));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    expect(res.headers.get("x-redactions")).toBe("6");
    expect(new Uint8Array(await res.arrayBuffer()).subarray(0, 2)).toEqual(new Uint8Array([0x50, 0x4b]));
  });

  test("a password-protected PDF is redacted with the `password` field and comes back unencrypted", async () => {
    const { key } = await newKey(server);
    const dir = mkdtempSync(join(tmpdir(), "redact-http-"));
    try {
      const input = join(dir, "zenith.pdf");
      writeFileSync(input, await sample("zenith.pdf"));
      const qpdf = Bun.spawn(["qpdf", "--encrypt", "user-pw", "owner-pw", "256", "--", input, "-"], { stdout: "pipe", stderr: "pipe" });
      const encrypted = new Uint8Array(await new Response(qpdf.stdout).arrayBuffer());
      expect(await qpdf.exited).toBe(0);
      const refused = await post(server, "/v1/parse", key, form(encrypted, { redact: "true" }));
      expect(refused.status).toBe(422);
      const res = await post(server, "/v1/parse", key, form(encrypted, { redact: "true", password: "user-pw" }));
      expect(res.status).toBe(200);
      expect(res.headers.get("x-redactions")).toBe("3");
      const bytes = new Uint8Array(await res.arrayBuffer());
      await expectNoLeaks(bytes, ["TEST USER", "0000000000", "Test Address"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("an encrypted PDF gives the parse's 422 encrypted_source", async () => {
    const { key } = await newKey(server);
    const res = await post(server, "/v1/parse", key, form(await sample("encrypted.pdf"), { redact: "true" }));
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error_class: string }).error_class).toBe("encrypted_source");
  });
});

describe("redact jobs", () => {
  test("the snapshot carries the count and the result URL serves the redacted bytes", async () => {
    const { key } = await newKey(server);
    const created = await submit(server, key, form(await sample("firstbank.pdf"), { redact: "true" }));
    const snap = await waitFinished(server, key, created.job_id);
    expect(snap.state).toBe("done");
    expect(snap.result_kind).toBe("redact");
    expect(snap.redactions).toBe(9);
    const res = await get(server, snap.result_url!, key);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    await expectNoLeaks(new Uint8Array(await res.arrayBuffer()), ["TEST USER", "0000000000", "Test Address", "test@example.com"]);
  });
});
