/**
 * Issue 27 item 6: every operation in /openapi.json says who may call it, shows a request (curl)
 * and an example response, and every example validates against its own schema; error_class and
 * bank are enums.
 */
import { describe, expect, test } from "bun:test";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { startTestServer } from "../helpers/server.ts";

const server = await startTestServer();
const spec = (await (await server.fetch("/openapi.json")).json()) as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { enum?: string[] }> };
};
interface Media {
  schema?: object;
  example?: unknown;
}
interface Operation {
  description?: string;
  "x-codeSamples"?: { lang: string; source: string }[];
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { content?: Record<string, Media> }>;
}
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(spec, "openapi.json");
const operations = Object.entries(spec.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, op })));

function problems(schema: object, example: unknown): string | undefined {
  // The operation's schema refers to named components of the document (added to Ajv above).
  const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi.json#/components/')) as object);
  return validate(example) ? undefined : ajv.errorsText(validate.errors);
}

describe("/openapi.json examples", () => {
  test("there are operations to check", () => {
    expect(operations.length).toBeGreaterThanOrEqual(20);
  });

  for (const { name, op } of operations) {
    test(`${name}: auth line, curl request, at least one example response, every example valid`, () => {
      expect(op.description ?? "").toStartWith("**Auth:** ");
      const sample = op["x-codeSamples"]?.[0];
      expect(sample?.lang).toBe("shell");
      expect(sample?.source).toStartWith("curl ");
      let examples = 0;
      for (const [status, response] of Object.entries(op.responses)) {
        for (const [media, entry] of Object.entries(response.content ?? {})) {
          if (entry.example === undefined) continue;
          examples++;
          if (media === "application/json") expect(problems(entry.schema ?? {}, entry.example) ?? `${status} ok`).toBe(`${status} ok`);
          else expect(typeof entry.example).toBe("string");
        }
      }
      expect(examples).toBeGreaterThan(0);
      const json = op.requestBody?.content["application/json"];
      if (json) expect(problems(json.schema ?? {}, json.example) ?? "request ok").toBe("request ok");
    });
  }

  test("error_class and bank are enums", () => {
    const classes = spec.components.schemas.ErrorClass?.enum ?? [];
    for (const c of ["auth_error", "not_found", "layout_unrecognized", "job_expired", "idempotency_key_reused"]) expect(classes).toContain(c);
    const banks = spec.components.schemas.BankId?.enum ?? [];
    for (const b of ["gtbank", "uba", "opay", "unknown"]) expect(banks).toContain(b);
  });
});
