import { z } from "zod";

/**
 * A bank is data: an id, a display name, marker groups, heading sets, sort-code prefixes and a few
 * quirks. A profile matches a document when every marker of ANY one group occurs in its letterhead,
 * summary, footer or producer as whole words (case-insensitive), or one heading set is the table's
 * headings in order (see detect.ts); layout inference does the rest, so quirks only override what
 * inference would get wrong.
 */
const marker = z.string().trim().min(2, "a marker must be at least 2 characters");

/** Fewer headings than this are printed by every bank ("Date", "Balance"): they tell nothing apart. */
const HEADINGS_MIN = 4;

export const quirksSchema = z
  .object({
    /** The printed credit total includes the opening balance (Zenith's totals row does). */
    creditTotalIncludesOpening: z.boolean().optional(),
  })
  .strict();

export const bankProfileSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9_]*$/, "id must be lower-case letters, digits or _"),
    name: z.string().trim().min(2),
    formats: z.array(z.enum(["pdf", "xlsx"])).min(1).default(["pdf"]),
    /** Groups of strings printed in the letterhead, summary block or footer (names, domains, e-mails, distinctive labels). */
    markers: z.array(z.array(marker).min(1, "a marker group cannot be empty")).min(1, "a profile needs at least one marker group"),
    /** The table's column headings, in print order: what a logo-only letterhead still prints. */
    headings: z.array(z.array(marker).min(HEADINGS_MIN, `a heading set needs at least ${HEADINGS_MIN} headings`)).default([]),
    /** First three digits of the bank's sort codes (its CBN bank code), read after a "Sort Code" label. */
    sortCodes: z.array(z.string().regex(/^\d{3}$/, "a sort-code prefix is 3 digits")).default([]),
    quirks: quirksSchema.default({}),
  })
  .strict();

export type BankProfile = z.output<typeof bankProfileSchema>;
export type BankProfileInput = z.input<typeof bankProfileSchema>;

/** Validates a profile at import time; an invalid profile stops the engine from loading. */
export function defineBankProfile(input: BankProfileInput): BankProfile {
  const r = bankProfileSchema.safeParse(input);
  if (!r.success) {
    const id = typeof (input as { id?: unknown }).id === "string" ? (input as { id: string }).id : "?";
    throw new Error(`Invalid bank profile ${id}: ${r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  }
  return r.data;
}
