import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { ValidateFunction } from "ajv";

/**
 * The published contract, checked against what the server really sends. Every response a test
 * receives through startTestServer's `fetch`/`admin` (test/helpers/server.ts) is looked up in
 * /openapi.json by method and path: its status must be declared, its content type must be one of
 * that status's media types (none for a body-less status), and a JSON body must validate against
 * the declared schema with Ajv (JSON Schema 2020-12, the dialect of OpenAPI 3.1). Paths the
 * document does not describe (the web page, /openapi.json itself, unknown routes) are not checked.
 */

type Json = Record<string, unknown>;
interface Operation {
  responses: Record<string, { content?: Record<string, unknown> }>;
}
interface Route {
  pattern: RegExp;
  path: string;
  operations: Record<string, Operation>;
}

/** Media types whose bodies are checked by content type only (streams and documents). */
const UNREAD = /^(text\/event-stream|application\/(pdf|octet-stream|vnd\.))/;

export class Contract {
  private readonly ajv: InstanceType<typeof Ajv2020>;
  private readonly routes: Route[];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(readonly spec: Json) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(this.ajv);
    // Refs inside the document (#/components/schemas/...) resolve against this id.
    this.ajv.addSchema(spec, "openapi.json");
    const paths = (spec.paths ?? {}) as Record<string, Record<string, Operation>>;
    this.routes = Object.entries(paths).map(([path, operations]) => ({
      path,
      operations,
      pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}$`),
    }));
  }

  static async load(baseUrl: string): Promise<Contract> {
    const res = await fetch(`${baseUrl}/openapi.json`);
    if (res.status !== 200) throw new Error(`GET /openapi.json answered ${res.status}`);
    return new Contract((await res.json()) as Json);
  }

  /** The described operation for a request, if any (literal paths win over templated ones). */
  operation(method: string, pathname: string): { path: string; op: Operation } | undefined {
    const m = method.toLowerCase();
    const matches = this.routes.filter((r) => r.pattern.test(pathname) && r.operations[m]);
    const best = matches.find((r) => !r.path.includes("{")) ?? matches[0];
    return best ? { path: best.path, op: best.operations[m] as Operation } : undefined;
  }

  /**
   * What is wrong with `res` as the answer to `method url` (undefined: nothing). Reads a clone of
   * the body for JSON and text; leaves streams and documents unread.
   */
  async problems(method: string, url: string, res: Response): Promise<string | undefined> {
    const { pathname } = new URL(url);
    const found = this.operation(method, pathname);
    if (!found) return undefined;
    const where = `${method.toUpperCase()} ${found.path} → ${res.status}`;
    const declared = found.op.responses[String(res.status)] ?? found.op.responses.default;
    if (!declared) return `${where}: status not declared (declared: ${Object.keys(found.op.responses).join(", ")})`;
    const contentType = (res.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    const media = declared.content ?? {};
    if (Object.keys(media).length === 0) {
      const body = await res.clone().text();
      return body === "" ? undefined : `${where}: declared without a body, got ${contentType || "no content type"} "${body.slice(0, 80)}"`;
    }
    if (!(contentType in media)) return `${where}: content type "${contentType}" not declared (declared: ${Object.keys(media).join(", ")})`;
    if (UNREAD.test(contentType)) return undefined;
    const text = await res.clone().text();
    let body: unknown = text;
    if (contentType === "application/json") {
      try {
        body = JSON.parse(text);
      } catch {
        return `${where}: application/json body is not JSON: "${text.slice(0, 80)}"`;
      }
    }
    const validate = this.validator(found.path, method.toLowerCase(), String(res.status) in found.op.responses ? String(res.status) : "default", contentType);
    if (validate(body)) return undefined;
    const errors = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || "/"} ${e.message ?? ""} ${JSON.stringify(e.params)}`);
    return `${where} (${contentType}): body does not match its schema: ${errors.join("; ")}`;
  }

  private validator(path: string, method: string, status: string, contentType: string): ValidateFunction {
    const pointer = ["paths", path, method, "responses", status, "content", contentType, "schema"].map((s) => s.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");
    let v = this.validators.get(pointer);
    if (!v) {
      v = this.ajv.compile({ $ref: `openapi.json#/${pointer}` });
      this.validators.set(pointer, v);
    }
    return v;
  }
}
