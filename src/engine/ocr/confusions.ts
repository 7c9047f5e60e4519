/**
 * The misreadings of a printed amount that OCR makes and the balance chain can undo safely: each
 * turns exactly one true value into the printed one, so a value the chain asks for is accepted only
 * when one of them explains the printed reading. Anything else (a digit added or dropped, a
 * missing row) is never explained away: "3.75" was once "fixed" to 53.75 by a rule that allowed it.
 */
import { absKobo, formatKobo, type Kobo } from "../money.ts";

export type Confusion = "digit_substituted" | "decimal_point_lost" | "decimal_point_read_as_1" | "decimal_point_read_as_7";

/** How `printed` is a single misreading of `truth` (both kobo, same sign), or null. */
export function confusionOf(printed: Kobo, truth: Kobo): Confusion | null {
  if (printed === truth || (printed < 0n) !== (truth < 0n)) return null;
  const p = formatKobo(absKobo(printed));
  const t = formatKobo(absKobo(truth));
  if (p.length === t.length) {
    let diffs = 0;
    for (let i = 0; i < p.length; i++) if (p[i] !== t[i]) diffs++;
    return diffs === 1 ? "digit_substituted" : null;
  }
  // A lost or misread point leaves a whole number ("375" or "3175" for 3.75).
  if (!p.endsWith(".00")) return null;
  const printedDigits = p.slice(0, -3);
  const [whole, frac] = t.split(".") as [string, string];
  if (printedDigits === whole + frac) return "decimal_point_lost";
  if (printedDigits === `${whole}1${frac}`) return "decimal_point_read_as_1";
  if (printedDigits === `${whole}7${frac}`) return "decimal_point_read_as_7";
  return null;
}
