/** Every wild-corpus document (fixtures/wild) through POST /v1/parse on a running server. */
import { describe, expect, test } from "bun:test";
import { wildDocuments, wildDifferences } from "../../fixtures/wild/index.ts";
import { unique } from "../helpers/db.ts";
import { startTestServer } from "../helpers/server.ts";

const server = await startTestServer({ FIRST_PARTY_IP_MONTHLY_CAP: "10000" });
const issued = await server.admin("/v1/keys", {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ name: "wild", owner: unique(), tier: "first_party" }),
});
const { key } = (await issued.json()) as { key: string };

describe("POST /v1/parse on the wild corpus", () => {
  for (const doc of wildDocuments()) {
    test(doc.name, async () => {
      const form = new FormData();
      form.append("pdf", new Blob([doc.bytes()]), doc.file);
      const res = await server.fetch("/v1/parse", {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "x-first-party-client-ip": "203.0.113.9" },
        body: form,
      });
      const body = (await res.json()) as Record<string, unknown>;
      expect({ status: res.status, error: body.error_class }).toEqual({ status: 200, error: undefined });
      expect(wildDifferences(doc.expected(), body)).toEqual([]);
    });
  }
});
