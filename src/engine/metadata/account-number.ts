/**
 * Account numbers as printed: plain digits ("0123456789", "000 000 0000") or already masked by
 * the bank ("2054XXXXXX", "064****837"). The engine keeps what was printed and outputs only a
 * masked form.
 */

/** Characters banks print in place of hidden digits. */
const MASK_CHAR = /[Xx*#•]/;

/**
 * An account number at the start of a value: 6 to 20 digits or mask characters, possibly grouped
 * ("000 000 0000"), at least three of them printed digits ("0123456789 (NGN)", "064XXXX837").
 */
const ACCOUNT_RUN = /^[\dXx*#•](?:[\s-]?[\dXx*#•]){5,19}(?![\dXx*#•])/;

/**
 * The account number a value starts with, as printed without its spacing: digits, and the bank's
 * own mask characters where it hid digits (kept, so redaction finds the printed form); null when none.
 */
export function readAccountNumber(value: string): string | null {
  // "#0123456789": the number sign before a whole NUBAN, not a hidden digit.
  const run = ACCOUNT_RUN.exec(value.trim().replace(/^#\s?(?=\d{10}(?!\d))/, ""))?.[0];
  if (!run) return null;
  const compact = run.replace(/[\s-]/g, "");
  let digits = 0;
  for (const ch of compact) if (ch >= "0" && ch <= "9") digits++;
  // "XXXX" or a word ("Savings" has no digit) is not an account number.
  if (digits < 3) return null;
  // A run of letters "x" inside a word ("xxxxxx" of "Box 123456") is not a mask: it must touch a digit.
  if (!/\d/.test(compact[0]!) && !/\d/.test(compact[compact.length - 1]!) && !/\d[Xx*#•]|[Xx*#•]\d/.test(compact)) return null;
  return compact;
}

/** True when the number was printed with hidden digits. */
export const isMasked = (account: string) => MASK_CHAR.test(account);

/** Digits of the account kept in a masked number. */
const SHOWN = 4;

/**
 * `0123456789` -> `******6789`: the last four printed digits survive in their places, everything
 * else is masked. A number the bank already masked keeps only what it printed ("064XXXX837" ->
 * "**4****837", "2054XXXXXX" -> "2054******"), so no digit is ever invented.
 */
export function maskAccountNumber(printed: string | null): string {
  // Grouping ("064 XXX X837") is spacing, not a position of the number.
  const account = printed?.replace(/[\s-]/g, "");
  if (!account) return "";
  if (!isMasked(account)) {
    if (account.length < SHOWN) return "";
    return `${"*".repeat(Math.max(account.length - SHOWN, 6))}${account.slice(-SHOWN)}`;
  }
  let keep = SHOWN;
  const out: string[] = [];
  for (let i = account.length - 1; i >= 0; i--) {
    const ch = account[i]!;
    if (ch >= "0" && ch <= "9" && keep > 0) {
      out.push(ch);
      keep--;
    } else out.push("*");
  }
  return out.reverse().join("");
}

/**
 * What a scrubber is given: free text (narration, holder), where every occurrence of the number is
 * masked, or a reference, where the number is masked only when it stands as a word of its own.
 */
export type ScrubbedField = "text" | "reference";

/**
 * A function that replaces every whole-token occurrence of the account number by its mask. In a
 * reference the number glued into a longer identifier ("MCJS|INTR|...|2025-08|0123456789_CREDIT_1")
 * is part of that identifier, which the bank's own records are searched by: it stays as printed.
 */
export function accountScrubber(account: string | null): (text: string, field?: ScrubbedField) => string {
  // A masked number hides its digits already; only a full number can leak through narrations.
  if (!account || account.length < 6 || !/^\d+$/.test(account)) return (text) => text;
  const re = new RegExp(`(?<!\\d)${account}(?!\\d)`, "g");
  const word = new RegExp(`(?<!\\S)${account}(?!\\S)`, "g");
  const mask = maskAccountNumber(account);
  return (text, field = "text") => (text.includes(account) ? text.replace(field === "reference" ? word : re, mask) : text);
}
