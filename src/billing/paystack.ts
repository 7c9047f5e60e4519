import { z } from "zod";
import { AppError } from "../errors.ts";

export const billingNotConfigured = (what: string) =>
  new AppError("billing_not_configured", 503, `Billing is not configured on this server (${what})`);
export const paymentProviderError = (message: string, internal?: unknown) =>
  new AppError("payment_provider_error", 502, message, { internal });

export interface PaystackClientOptions {
  baseUrl: string;
  secretKey: string;
  timeoutMs: number;
}

export interface InitializeRequest {
  email: string;
  /** Kobo; Paystack charges the plan's own amount when `plan` is set, but requires the field. */
  amountKobo: number;
  planCode: string;
  reference: string;
  metadata: Record<string, string>;
  callbackUrl?: string;
}

export interface Checkout {
  authorization_url: string;
  access_code: string;
  reference: string;
}

// Paystack wraps every answer as {status, message, data}; status false carries the reason in message.
const InitializeAnswer = z.object({
  status: z.literal(true),
  message: z.string().optional(),
  data: z.object({ authorization_url: z.string().url(), access_code: z.string().min(1), reference: z.string().min(1) }),
});
const FailureAnswer = z.object({ status: z.literal(false), message: z.string() });

/**
 * The part of Paystack's API the service calls. The secret goes only into the Authorization
 * header; errors carry Paystack's public message, never the request or the key.
 */
export function paystackClient({ baseUrl, secretKey, timeoutMs }: PaystackClientOptions) {
  const url = (path: string) => new URL(path, baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`).toString();
  return {
    /** POST /transaction/initialize: starts a checkout; the plan makes the payment a subscription. */
    async initializeTransaction(req: InitializeRequest): Promise<Checkout> {
      let res: Response;
      try {
        res = await fetch(url("transaction/initialize"), {
          method: "POST",
          headers: { authorization: `Bearer ${secretKey}`, "content-type": "application/json", accept: "application/json" },
          body: JSON.stringify({
            email: req.email,
            amount: String(req.amountKobo),
            plan: req.planCode,
            reference: req.reference,
            metadata: req.metadata,
            ...(req.callbackUrl ? { callback_url: req.callbackUrl } : {}),
          }),
          signal: AbortSignal.timeout(timeoutMs),
          redirect: "error",
        });
      } catch (e) {
        const timedOut = e instanceof Error && (e.name === "TimeoutError" || e.name === "AbortError");
        throw paymentProviderError(timedOut ? "The payment provider did not answer in time" : "The payment provider could not be reached", String(e));
      }
      const text = await res.text().catch(() => "");
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw paymentProviderError(`The payment provider answered ${res.status} with a body that is not JSON`, text.slice(0, 200));
      }
      const ok = InitializeAnswer.safeParse(body);
      if (res.ok && ok.success) return ok.data.data;
      const failure = FailureAnswer.safeParse(body);
      const reason = failure.success ? `: ${failure.data.message}` : "";
      throw paymentProviderError(`The payment provider refused the checkout (HTTP ${res.status})${reason}`, text.slice(0, 500));
    },
  };
}

export type PaystackClient = ReturnType<typeof paystackClient>;

/** Paystack mode of a secret key: sk_test_… or sk_live_…; undefined for any other shape. */
export function secretKeyMode(secretKey: string): "test" | "live" | undefined {
  if (secretKey.startsWith("sk_test_")) return "test";
  if (secretKey.startsWith("sk_live_")) return "live";
  return undefined;
}
