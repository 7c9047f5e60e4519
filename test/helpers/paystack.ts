import { afterAll } from "bun:test";
import { createHmac } from "node:crypto";
import { contractFetch } from "./server.ts";

/**
 * A local HTTP server that speaks the slice of Paystack's API the service uses, with Paystack's
 * request and response shapes, so billing is exercised over real HTTP rather than through mocks:
 * - POST /transaction/initialize: checks `Authorization: Bearer <secret>`, the email, amount and
 *   plan, and answers `{status, message, data: {authorization_url, access_code, reference}}`;
 *   every request is recorded for assertions.
 * - `deliver()` posts an event to the service's webhook the way Paystack does, signed with
 *   HMAC-SHA512 of the exact body bytes in `x-paystack-signature`.
 * `mode` makes initialize fail like Paystack does (400 with status false), answer 500 with HTML,
 * or hang (to trip the client's timeout).
 */
export interface FakePaystack {
  baseUrl: string;
  secretKey: string;
  requests: InitializeRecord[];
  mode: "ok" | "reject" | "server_error" | "hang";
  deliver(webhookUrl: string, event: PaystackEvent, options?: { secretKey?: string; signature?: string | null }): Promise<Response>;
  stop(): void;
}

export interface InitializeRecord {
  authorization: string | null;
  body: Record<string, unknown>;
}

export interface PaystackEvent {
  event: string;
  data: Record<string, unknown>;
}

export function startFakePaystack(secretKey = `sk_test_${crypto.randomUUID().replaceAll("-", "")}`): FakePaystack {
  const requests: InitializeRecord[] = [];
  const state: { mode: FakePaystack["mode"] } = { mode: "ok" };
  const hanging: (() => void)[] = [];
  const json = (status: number, body: unknown) => Response.json(body, { status });

  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const url = new URL(req.url);
      if (req.method !== "POST" || url.pathname !== "/transaction/initialize") return json(404, { status: false, message: "Not found" });
      const authorization = req.headers.get("authorization");
      let body: Record<string, unknown> = {};
      try {
        body = (await req.json()) as Record<string, unknown>;
      } catch {
        return json(400, { status: false, message: "Invalid JSON" });
      }
      requests.push({ authorization, body });
      if (authorization !== `Bearer ${secretKey}`) return json(401, { status: false, message: "Invalid key" });
      if (state.mode === "hang") return new Promise<Response>((resolve) => hanging.push(() => resolve(json(504, { status: false, message: "late" }))));
      if (state.mode === "server_error") return new Response("<html>502 Bad Gateway</html>", { status: 500, headers: { "content-type": "text/html" } });
      if (state.mode === "reject") return json(400, { status: false, message: "Invalid plan code" });
      if (typeof body.email !== "string" || !body.email.includes("@")) return json(400, { status: false, message: "Invalid Email Address Passed" });
      if (!/^\d+$/.test(String(body.amount ?? ""))) return json(400, { status: false, message: "Invalid Amount Sent" });
      const reference = typeof body.reference === "string" ? body.reference : crypto.randomUUID();
      const accessCode = crypto.randomUUID().replaceAll("-", "").slice(0, 15);
      return json(200, {
        status: true,
        message: "Authorization URL created",
        data: { authorization_url: `https://checkout.paystack.com/${accessCode}`, access_code: accessCode, reference },
      });
    },
  });

  const fake: FakePaystack = {
    baseUrl: `http://127.0.0.1:${server.port}`,
    secretKey,
    requests,
    get mode() {
      return state.mode;
    },
    set mode(m) {
      state.mode = m;
    },
    async deliver(webhookUrl, event, options = {}) {
      const raw = JSON.stringify(event);
      const signature =
        options.signature !== undefined ? options.signature : createHmac("sha512", options.secretKey ?? secretKey).update(raw).digest("hex");
      const headers: Record<string, string> = { "content-type": "application/json", "user-agent": "Paystack" };
      if (signature !== null) headers["x-paystack-signature"] = signature;
      // Checked against /openapi.json like every test server answer (test/helpers/server.ts).
      return contractFetch(webhookUrl, { method: "POST", headers, body: raw });
    },
    stop() {
      for (const release of hanging.splice(0)) release();
      server.stop(true);
    },
  };
  afterAll(() => fake.stop());
  return fake;
}

// ---- Event payloads, shaped like Paystack's (trimmed to the fields a handler may read) ----

let seq = 1_000_000;
const nextId = () => ++seq;

export interface EventParams {
  domain?: "test" | "live";
  email: string;
  customerCode: string;
  planCode: string;
}

/**
 * `planCode: null` sends `plan: {}`, as Paystack does for a charge that is not a subscription;
 * `currency` defaults to NGN and `paidAt` to now.
 */
export function chargeSuccess(
  p: Omit<EventParams, "planCode"> & {
    planCode: string | null;
    reference: string;
    amountKobo: number;
    currency?: string;
    status?: string;
    paidAt?: string;
    metadata?: Record<string, string>;
  },
): PaystackEvent {
  const currency = p.currency ?? "NGN";
  return {
    event: "charge.success",
    data: {
      id: nextId(),
      domain: p.domain ?? "test",
      status: p.status ?? "success",
      reference: p.reference,
      amount: p.amountKobo,
      message: null,
      gateway_response: "Successful",
      paid_at: p.paidAt ?? new Date().toISOString(),
      channel: "card",
      currency,
      metadata: p.metadata ?? "",
      customer: { id: nextId(), first_name: null, last_name: null, email: p.email, customer_code: p.customerCode, phone: null, metadata: null, risk_action: "default" },
      plan:
        p.planCode === null
          ? {}
          : { id: nextId(), name: "Plan", plan_code: p.planCode, description: null, amount: p.amountKobo, interval: "monthly", send_invoices: 1, send_sms: 1, currency },
      authorization: { authorization_code: "AUTH_test", bin: "408408", last4: "4081", channel: "card", reusable: true },
    },
  };
}

export function subscriptionEvent(
  event: "subscription.create" | "subscription.not_renew" | "subscription.disable",
  p: EventParams & { subscriptionCode: string; nextPaymentDate?: string | null; amountKobo?: number },
): PaystackEvent {
  const amount = p.amountKobo ?? 950_000;
  const status = { "subscription.create": "active", "subscription.not_renew": "non-renewing", "subscription.disable": "complete" }[event];
  return {
    event,
    data: {
      id: nextId(),
      domain: p.domain ?? "test",
      status,
      subscription_code: p.subscriptionCode,
      email_token: "d7gofp6yppn3qz7",
      amount,
      cron_expression: "0 0 1 * *",
      next_payment_date: p.nextPaymentDate === undefined ? null : p.nextPaymentDate,
      open_invoice: null,
      createdAt: new Date().toISOString(),
      plan: { name: "Plan", plan_code: p.planCode, description: null, amount, interval: "monthly", send_invoices: true, send_sms: true, currency: "NGN" },
      authorization: { authorization_code: "AUTH_test", bin: "408408", last4: "4081", reusable: true },
      customer: { first_name: null, last_name: null, email: p.email, customer_code: p.customerCode, phone: "", metadata: {}, risk_action: "default" },
    },
  };
}

export function invoicePaymentFailed(p: EventParams & { subscriptionCode: string; invoiceCode: string }): PaystackEvent {
  return {
    event: "invoice.payment_failed",
    data: {
      domain: p.domain ?? "test",
      invoice_code: p.invoiceCode,
      amount: 950000,
      period_start: new Date().toISOString(),
      period_end: new Date().toISOString(),
      status: "failed",
      paid: false,
      paid_at: null,
      description: "Invoice for subscription",
      authorization: { authorization_code: "AUTH_test", reusable: true },
      subscription: { status: "attention", subscription_code: p.subscriptionCode, email_token: "d7gofp6yppn3qz7", amount: 950000, next_payment_date: null },
      customer: { email: p.email, customer_code: p.customerCode, phone: null, metadata: {}, risk_action: "default" },
      transaction: {},
      created_at: new Date().toISOString(),
    },
  };
}
