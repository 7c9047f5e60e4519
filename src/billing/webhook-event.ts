import { z } from "zod";

/**
 * The fields of a Paystack event body the handlers read; everything else passes through. Only the
 * shape is checked here: what the values may do is decided in webhook-target.ts.
 */

const Customer = z.object({ email: z.string().optional(), customer_code: z.string().optional() }).passthrough();
const Plan = z
  .object({ plan_code: z.string().optional(), amount: z.union([z.number(), z.string()]).optional(), currency: z.string().optional() })
  .passthrough();
// Paystack sends `plan: {}` or null on charges that are not subscriptions, and metadata as "" when empty.
const optionalObject = <T extends z.ZodTypeAny>(schema: T) => z.preprocess((v) => (v && typeof v === "object" ? v : undefined), schema.optional());

export const EventData = z
  .object({
    id: z.union([z.number(), z.string()]).optional(),
    domain: z.string().optional(),
    status: z.string().optional(),
    reference: z.string().optional(),
    /** Integer kobo (the smallest unit of `currency`). */
    amount: z.union([z.number(), z.string()]).optional(),
    currency: z.string().optional(),
    paid_at: z.string().nullable().optional(),
    subscription_code: z.string().optional(),
    invoice_code: z.string().optional(),
    next_payment_date: z.string().nullable().optional(),
    /** When an invoice was created (invoice.payment_failed): a failure older than the latest charge is stale. */
    created_at: z.string().nullable().optional(),
    customer: optionalObject(Customer),
    plan: optionalObject(Plan),
    metadata: optionalObject(z.object({}).passthrough()),
    subscription: optionalObject(z.object({ subscription_code: z.string().optional() }).passthrough()),
    /** invoice.update: whether the invoice is paid, and the charge that paid it. */
    paid: z.boolean().optional(),
    transaction: optionalObject(z.object({ reference: z.string().optional(), status: z.string().optional(), currency: z.string().optional() }).passthrough()),
  })
  .passthrough();
export type EventData = z.infer<typeof EventData>;

export const Event = z.object({ event: z.string(), data: EventData });
