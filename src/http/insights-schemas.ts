import { z } from "zod";
import { CATEGORIES, CHANNELS } from "../engine/insights/vocabulary/schema.ts";

/**
 * OpenAPI schemas of `?include=insights` (docs/insights.md): the per-transaction `enrichment` and
 * the statement's `insights`. Open objects, as every engine object (fields may be added).
 */

const Row = z.number().int().describe("Statement row index: the row's place among all account sections' rows in print order (the CSV's line order)");
const Money = z.string().describe('Decimal naira, e.g. "1500.00"');

export const InsightFigure = z
  .looseObject({
    amount: Money,
    of: z.enum(["credit", "debit", "net"]).describe("amount is exactly the sum of these rows' credits, debits, or credits minus debits"),
    rows: z.array(Row),
  })
  .meta({ id: "InsightFigure", description: "A figure and the rows it adds up from" });

export const Enrichment = z
  .looseObject({
    category: z.enum(CATEGORIES),
    channel: z.enum(CHANNELS),
    counterparty: z.looseObject({ name: z.string(), bank: z.string().nullable() }).nullable().describe("The other party, where the narration names it"),
    session_id: z.string().nullable().describe("30-digit NIBSS Instant Payment session id"),
    fee_of: Row.nullable().describe("For a charge, VAT, stamp duty or EMTL row: the row it was taken for"),
    confidence: z.looseObject({
      category: z.number(),
      channel: z.number(),
      counterparty: z.number().nullable(),
      session_id: z.number().nullable(),
      fee_of: z.number().nullable(),
    }),
  })
  .meta({ id: "Enrichment", description: "What the transaction is (include=insights only)" });

const Month = z.looseObject({ month: z.string().describe("YYYY-MM"), inflow: InsightFigure, outflow: InsightFigure });
const Salary = z.looseObject({
  employer: z.string(),
  amount: Money.describe("The latest credit"),
  total: InsightFigure,
  day_of_month: z.number().int(),
  months_seen: z.array(z.string()),
  months_missed: z.array(z.string()),
  regularity: z.enum(["monthly", "skips_months", "once"]),
  basis: z.enum(["narration", "recurrence"]),
  confidence: z.number(),
});
const Recurring = z.looseObject({
  description: z.string(),
  category: z.enum(CATEGORIES),
  cadence: z.enum(["monthly", "weekly"]),
  amount: Money,
  occurrences: z.number().int(),
  months: z.array(z.string()),
  total: InsightFigure,
});
const Balances = z.looseObject({
  section: z.number().int(),
  average_daily: z.looseObject({ amount: Money, sum: Money, days: z.number().int(), rows: z.array(Row), days_held: z.array(z.number().int()) }),
  lowest: z.looseObject({ amount: Money, row: Row }).nullable(),
  negative_or_zero_days: z.array(z.looseObject({ day: z.string(), balance: Money, row: Row })),
});

export const Insights = z
  .looseObject({
    row_count: z.number().int(),
    monthly: z.array(Month),
    salary: z.array(Salary),
    recurring_debits: z.array(Recurring),
    charges: z.looseObject({
      total: InsightFigure,
      bank_charges: InsightFigure,
      levies: InsightFigure,
      vat: InsightFigure,
      emtl: InsightFigure,
      stamp_duty: InsightFigure,
      other_levies: InsightFigure,
    }),
    own_transfers: z.looseObject({ inflow: InsightFigure, outflow: InsightFigure }),
    loans: z.looseObject({
      disbursed: InsightFigure,
      repaid: InsightFigure,
      lenders: z.array(z.looseObject({ lender: z.string(), disbursed: InsightFigure, repaid: InsightFigure })),
    }),
    betting: z.looseObject({
      staked: InsightFigure,
      won: InsightFigure,
      operators: z.array(z.looseObject({ operator: z.string(), staked: InsightFigure, won: InsightFigure })),
    }),
    balances: z.array(Balances),
    reversed_or_bounced: z.looseObject({
      reversed_in: InsightFigure,
      reversed_out: InsightFigure,
      items: z.array(z.looseObject({ row: Row, kind: z.enum(["reversal", "bounced"]), amount: Money, reverses: Row.nullable() })),
    }),
    largest_counterparties: z.array(z.looseObject({ name: z.string(), bank: z.string().nullable(), inflow: InsightFigure, outflow: InsightFigure })),
  })
  .meta({ id: "Insights", description: "The statement as a credit analyst reads it (include=insights only); docs/insights.md" });
