import { documentLines } from "./assemble.ts";
import { scanTable } from "./layout/rows.ts";
import { extractHeaderFacts } from "./metadata/index.ts";
import type { ExtractedDocument } from "./types.ts";

/** Personal data printed on a statement, for the redaction stage to find and cover. */
export interface StatementPii {
  /** Account numbers as printed digits (spaces removed), e.g. "0123456789". */
  accountNumbers: string[];
  /** Account holder name(s) as printed. */
  holderNames: string[];
  /** Those of holderNames read from a holder label rather than guessed. */
  labelledHolderNames: string[];
  /** Exact strings to cover wherever they occur (numbers in their printed spellings, names). */
  strings: string[];
}

/**
 * NUBAN-like or longer digit runs printed next to an account label. The spaces between label,
 * punctuation and number are bounded: two neighbouring unbounded `\s*` made a long run of spaces
 * after "account no" cost quadratic time.
 */
const ACCOUNT_INLINE = /(?:account|acct|a\/c|acc)\.?\s{0,8}(?:no|number|num|#)\.?\s{0,8}:?\s{0,8}(\d[\d\s-]{5,24}\d)/gi;

/**
 * Finds the statement's own PII: the account number(s) and the holder name from the metadata
 * blocks (same label reading as the parse), plus any number printed after an account label.
 */
export function findStatementPii(doc: ExtractedDocument): StatementPii {
  const lines = documentLines(doc);
  const scan = scanTable(lines);
  const facts = extractHeaderFacts(scan.columns ? scan.outside : lines);
  const printed = new Set<string>();
  const numbers = new Set<string>();
  if (facts.accountNumber) numbers.add(facts.accountNumber);
  // A second account's section (not parsed) is the holder's too.
  if (scan.otherAccount) numbers.add(scan.otherAccount);
  for (const line of lines) {
    for (const m of line.text.matchAll(ACCOUNT_INLINE)) {
      const spelled = m[1]!.trim();
      printed.add(spelled);
      numbers.add(spelled.replace(/\D/g, ""));
    }
  }
  // Printed spellings of known numbers ("000 000 0000") as they appear on the page.
  for (const line of lines) {
    for (const cell of line.cells) {
      const digits = cell.text.replace(/\D/g, "");
      if (numbers.has(digits) && /^[\d\s-]+$/.test(cell.text.trim())) printed.add(cell.text.trim());
    }
  }
  for (const n of numbers) printed.add(n);
  const holders = facts.holder ? [facts.holder] : [];
  for (const h of holders) printed.add(h);
  const labelledHolderNames = facts.holderLabelled ? holders : [];
  return { accountNumbers: [...numbers], holderNames: holders, labelledHolderNames, strings: [...printed].filter((s) => s.length >= 2) };
}
