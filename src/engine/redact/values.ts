/** The kinds of personal data redaction removes, and the holder's values of each kind. */

export type PiiKind = "name" | "account_number" | "bvn" | "phone" | "email" | "address";

export interface PiiValues {
  names: string[];
  accountNumbers: string[];
  bvns: string[];
  phones: string[];
  emails: string[];
  addresses: string[];
}

export const emptyValues = (): PiiValues => ({ names: [], accountNumbers: [], bvns: [], phones: [], emails: [], addresses: [] });

export function mergeValues(into: PiiValues, from: Partial<PiiValues>): void {
  for (const k of Object.keys(into) as (keyof PiiValues)[]) {
    for (const v of from[k] ?? []) if (!into[k].some((x) => x.toLowerCase() === v.toLowerCase())) into[k].push(v);
  }
}

/**
 * What the engine already knows of a statement. `labelledNames` were read from a holder label by
 * the engine's PII finder and are trusted as they are; other names (the parse's metadata guess)
 * must also stand on a line of their own before they are believed.
 */
export type KnownPii = Partial<PiiValues> & { labelledNames?: readonly string[] };
