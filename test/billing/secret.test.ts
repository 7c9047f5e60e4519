import { describe, expect, test, afterAll } from "bun:test";
import { loadConfig } from "../../src/config.ts";
import { createLogger } from "../../src/log.ts";
import { startServer } from "../../src/server.ts";
import { sharedDb, unique } from "../helpers/db.ts";
import { chargeSuccess, startFakePaystack } from "../helpers/paystack.ts";
import { ADMIN_TOKEN } from "../helpers/server.ts";

/** The Paystack secret reaches Paystack's Authorization header and nowhere else: not logs, not responses. */
const paystack = startFakePaystack();
const lines: string[] = [];
const config = loadConfig({}, {
  PORT: "0",
  HOST: "127.0.0.1",
  ADMIN_TOKEN,
  WORKERS: "1",
  LOG_LEVEL: "debug",
  PAYSTACK_BASE_URL: paystack.baseUrl,
  PAYSTACK_SECRET_KEY: paystack.secretKey,
  PAYSTACK_PLAN_STARTER: "PLN_secret_test",
  PAYSTACK_TIMEOUT_MS: "200",
});
const server = await startServer({ config, db: await sharedDb(), log: createLogger("debug", (l) => lines.push(l)) });
afterAll(() => server.stop());

describe("the Paystack secret", () => {
  test("is never logged nor returned, whatever happens to a checkout or a webhook", async () => {
    const bodies: string[] = [];
    const subscribe = async () => {
      const res = await fetch(`${server.url}/v1/admin/billing/subscribe`, {
        method: "POST",
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
        body: JSON.stringify({ owner: unique(), email: "payer@example.com", tier: "starter" }),
      });
      bodies.push(await res.text());
      return res.status;
    };
    expect(await subscribe()).toBe(200);
    for (const mode of ["reject", "server_error", "hang"] as const) {
      paystack.mode = mode;
      expect(await subscribe()).toBe(502);
    }
    paystack.mode = "ok";
    const hook = `${server.url}/v1/billing/paystack/webhook`;
    const event = chargeSuccess({ email: "payer@example.com", customerCode: "CUS_x", planCode: "PLN_secret_test", reference: "nope", amountKobo: 1 });
    for (const res of [await paystack.deliver(hook, event), await paystack.deliver(hook, event, { signature: "ab".repeat(64) })]) bodies.push(await res.text());

    expect(paystack.requests.length).toBeGreaterThanOrEqual(4);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.some((l) => l.includes("paystack"))).toBe(true);
    for (const text of [...lines, ...bodies]) expect(text).not.toContain(paystack.secretKey);
  });
});
