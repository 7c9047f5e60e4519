import type { Cell } from "./cells.ts";
import { type Assigned, MONEY } from "./columns.ts";
import { type Column, DATE_ROLES, TEXT_ROLES, WORD_ROLES } from "./header.ts";
import type { RoleTexts } from "./draft.ts";

/**
 * Repairs of one table line's cells after they were placed in columns: dates that belong to the
 * narration, a reference run into its narration, sheet date serials; and the line's texts by role.
 */

/**
 * A date printed inside the narration ("SALARY ARREARS FOR" / "15/12/2023 PERIOD") lands in the
 * date column by type alone; when it does not touch the date column's band but lies in a text
 * column's, it belongs to that text column and must not start a row. So does a time wrapped onto
 * a narration's line of its own (`... 03-01-2026` / `05:41:38`) beside a time column, and a
 * narration's figure (`POS ... SHOPRITE LEKKI` / `NGN 5,363.59 TERM 76869207`) that lies wholly
 * in the narration's band, clear of every money column: it is no row's amount. Words the
 * placement pushed left of such a cell (`NG` of `NG 11-JAN-26`, sent to a serial column so that
 * the date could take the date column) go back with it, for the same reason.
 */
export function moveStrayCells(columns: Column[], byColumn: Cell[][]): void {
  columns.forEach((col, j) => {
    const share = DATE_ROLES.has(col.role) ? 0.5 : 1;
    const cells = byColumn[j]!;
    for (let k = cells.length - 1; k >= 0; k--) {
      const c = cells[k]!;
      if (Math.min(c.x1, col.x1) - Math.max(c.x0, col.x0) > 0) continue;
      if (MONEY.has(col.role) && columns.some((t) => MONEY.has(t.role) && Math.min(c.x1, t.x1) - Math.max(c.x0, t.x0) > 0)) continue;
      // A figure goes only to a narration or reference: an `other` column may be money whose
      // heading was not read (`Withdrawa` over `l`).
      const homes = MONEY.has(col.role) || c.kind === "money" ? WORD_ROLES : TEXT_ROLES;
      const home = columns.findIndex((t, i) => i !== j && homes.has(t.role) && (Math.min(c.x1, t.x1) - Math.max(c.x0, t.x0)) / Math.max(c.x1 - c.x0, 1e-6) >= share);
      if (home < 0) continue;
      cells.splice(k, 1);
      byColumn[home]!.push(c);
      byColumn[home]!.sort((a, b) => a.x0 - b.x0);
    }
  });
}


/** A reference-like token: letters and digits with at least one digit, no spaces ("FT2409031000", "NIP/240903/11"). */
const REF_TOKEN = /^(?=\S*\d)[A-Z0-9][A-Z0-9/_.-]{5,}$/i;

/**
 * A reference printed one space before the narration that follows it ("FT2409031000 SALARY
 * PAYMENT" as one run) while the narration heading is centred far to the right: the run lands
 * in the reference column (or is cut only at the heading's edge). The first token is the
 * reference, the rest the narration. Only when the reference column is directly left of the
 * narration column and a plain word follows the reference-like first token.
 */
export function splitRunTogetherReference(columns: Column[], byColumn: Cell[][]): void {
  const r = columns.findIndex((c) => c.role === "reference");
  if (r < 0 || columns[r + 1]?.role !== "narration" || byColumn[r]!.length !== 1) return;
  const cell = byColumn[r]![0]!;
  const words = cell.words;
  if (cell.kind !== "text" || !words || words.length < 2 || !REF_TOKEN.test(words[0]!.text) || !words.slice(1).some((w) => /^[A-Za-z]{3,}$/.test(w.text))) return;
  const [ref, ...rest] = words;
  byColumn[r] = [{ text: ref!.text, x0: ref!.x0, x1: ref!.x1, kind: "text", words: [ref!] }];
  // The run may also have been cut at the narration heading's edge: its first words go in front.
  byColumn[r + 1] = [{ text: rest.map((w) => w.text).join(" "), x0: rest[0]!.x0, x1: rest[rest.length - 1]!.x1, kind: "text", words: rest }, ...byColumn[r + 1]!];
}

/** Excel date serials of 1970-01-01 and 2099-12-31: numbers in this range under a date heading are dates. */
const SERIAL_MIN = 25569;
const SERIAL_MAX = 73050;
/** Excel day 0 (1899-12-30), in Unix milliseconds. */
const SERIAL_EPOCH_MS = Date.UTC(1899, 11, 30);

/**
 * A sheet whose date cells are not formatted as dates holds their serial numbers (45321). Under a
 * date column such a number is the date, read as Excel does (days since 1899-12-30, fraction = time).
 */
export function recoverSerialDates(columns: Column[], assigned: Assigned): void {
  columns.forEach((col, j) => {
    if ((col.role !== "date" && col.role !== "value_date") || assigned.byColumn[j]!.length > 0) return;
    const k = assigned.dropped.findIndex((c) => Math.min(c.x1, col.x1) - Math.max(c.x0, col.x0) > 0);
    if (k < 0) return;
    const cell = assigned.dropped[k]!;
    const n = Number(cell.text);
    if (!/^\d{5}(?:\.\d+)?$/.test(cell.text) || n < SERIAL_MIN || n > SERIAL_MAX) return;
    const d = new Date(SERIAL_EPOCH_MS + Math.round(n * 86_400) * 1000);
    assigned.dropped.splice(k, 1);
    assigned.byColumn[j]!.push({ ...cell, text: d.toISOString().slice(0, 19), kind: "date" });
  });
}

/** A continuation cell must lie mostly inside its column's band (share of its own width). */
const MIN_BAND_SHARE = 0.6;

export function withinBands(columns: Column[], byColumn: Cell[][]): boolean {
  return columns.every((col, j) =>
    byColumn[j]!.every((c) => {
      const w = c.x1 - c.x0;
      if (w <= 0) return true;
      return (Math.min(c.x1, col.x1) - Math.max(c.x0, col.x0)) / w >= MIN_BAND_SHARE;
    }),
  );
}

export function textsByRole(columns: Column[], byColumn: Cell[][]): RoleTexts {
  const out: RoleTexts = {};
  columns.forEach((c, j) => {
    const cells = byColumn[j]!;
    if (cells.length === 0) return;
    const text = cells.length === 1 ? cells[0]!.text : cells.map((x) => x.text).join(" ");
    out[c.role] = out[c.role] ? `${out[c.role]} ${text}` : text;
  });
  return out;
}

