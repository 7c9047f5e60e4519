/**
 * Encrypted PDFs over real HTTP: one with an empty owner password parses without the password
 * field; encrypted files that are truncated or damaged get a 4xx envelope that says so, never 500.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { unique } from "../helpers/db.ts";
import { startTestServer } from "../helpers/server.ts";

const data = (name: string): Uint8Array<ArrayBuffer> => new Uint8Array(readFileSync(join(import.meta.dir, "..", "engine", "data", name)));

const server = await startTestServer({ FIRST_PARTY_IP_MONTHLY_CAP: "10000" });
const issued = await server.admin("/v1/keys", {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ name: "encrypted", owner: unique(), tier: "first_party" }),
});
const { key } = (await issued.json()) as { key: string };

async function parse(bytes: Uint8Array<ArrayBuffer>, password?: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const form = new FormData();
  form.append("pdf", new Blob([bytes]), "statement.pdf");
  if (password !== undefined) form.append("password", password);
  const res = await server.fetch("/v1/parse", { method: "POST", headers: { authorization: `Bearer ${key}`, "x-first-party-client-ip": "203.0.113.9" }, body: form });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe("POST /v1/parse, encrypted PDFs", () => {
  test("empty owner password (AES-256): 200 without a password", async () => {
    const { status, body } = await parse(data("empty-owner-aes256.pdf"));
    expect(status).toBe(200);
    expect((body.transactions as unknown[]).length).toBe(2);
  });

  for (const name of ["empty-owner-aes256.pdf", "owner-only.pdf", "user-password.pdf"]) {
    test(`${name} truncated at several points: 4xx envelope naming the damage`, async () => {
      const whole = data(name);
      for (const share of [0.25, 0.5, 0.75, 0.9, 0.97, 0.995]) {
        const { status, body } = await parse(whole.slice(0, Math.floor(whole.length * share)));
        // Cut inside the last cross-reference section only, pdf.js may rebuild it and read the file.
        if (share > 0.99 && status === 200) continue;
        expect({ share, status: status >= 400 && status < 500 }).toEqual({ share, status: true });
        expect(["unsupported_format", "encrypted_source"]).toContain(body.error_class as string);
        expect(body.error as string).toMatch(/truncated|damaged|password/);
        expect(body).toMatchObject({ format_version: expect.any(String), marker_coverage: 0 });
      }
    });
  }

  test("the end of an encrypted file cut off: the message says encrypted and truncated", async () => {
    const whole = data("empty-owner-aes256.pdf");
    const { status, body } = await parse(whole.slice(0, whole.length - 20));
    expect(status).toBe(422);
    expect(body.error as string).toMatch(/encrypted and truncated/);
  });

  test("encrypted streams overwritten in the middle, with the password: 4xx or a parse, never 500", async () => {
    const bytes = data("user-password.pdf");
    const broken = bytes.slice();
    const mid = Math.floor(broken.length / 2);
    broken.fill(0x41, mid - 200, mid + 200);
    const { status } = await parse(broken, "user-secret");
    expect(status === 200 || (status >= 400 && status < 500)).toBe(true);
  });
});
