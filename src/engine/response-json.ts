import type { ParseResponse, Transaction } from "./types.ts";

/**
 * JSON.stringify(response), byte for byte, with each transactions array serialised once: the
 * first account section's rows are both the top level's `transactions` and `accounts[0]`'s, the
 * same array, ~13 MB of JSON on the 76,000 rows of the bench statement.
 */
export function responseJson(response: ParseResponse, rowsJson: RowsJson = (list) => JSON.stringify(list)): string {
  const made = new Map<Transaction[], string>();
  const rows = (list: Transaction[], section: number): string => {
    let json = made.get(list);
    if (json === undefined) made.set(list, (json = rowsJson(list, section)));
    return json;
  };
  const inSection = (section: number) => (key: string, value: unknown): string | undefined => (key === "transactions" && Array.isArray(value) ? rows(value, section) : undefined);
  return objectJson(response, (key, value) => {
    if (key === "accounts" && Array.isArray(value)) return `[${value.map((a: unknown, i) => (isPlainObject(a) ? objectJson(a, inSection(i)) : (JSON.stringify(a) ?? "null"))).join(",")}]`;
    return inSection(0)(key, value);
  });
}

/**
 * A transactions array's JSON, told which account section it is (the top level's is section 0's
 * rows): JSON.stringify unless a writer adds to each row (the insights' enrichment, src/output/insights-inline.ts).
 */
export type RowsJson = (rows: Transaction[], section: number) => string;

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v) && !("toJSON" in v);

/** JSON.stringify of a plain object, with `special` answering some fields' JSON itself (undefined: the usual). */
function objectJson(o: object, special: (key: string, value: unknown) => string | undefined): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(o)) {
    const json = special(key, value) ?? (JSON.stringify(value) as string | undefined);
    // JSON.stringify leaves out a field whose value it cannot write (undefined, a function).
    if (json !== undefined) parts.push(`${JSON.stringify(key)}:${json}`);
  }
  return `{${parts.join(",")}}`;
}
