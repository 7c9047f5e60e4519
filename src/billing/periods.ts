/**
 * Billing periods are calendar months in Africa/Lagos time. Lagos is UTC+1 all year (Nigeria has
 * no daylight saving), so a fixed offset is exact and needs no time-zone database; a period rolls
 * over at Lagos midnight on the 1st, which is 23:00 UTC on the last day of the previous month.
 */
const LAGOS_OFFSET_MS = 60 * 60 * 1000;

export interface BillingPeriod {
  /** `YYYY-MM` of the Lagos month, the key usage rows are grouped by. */
  key: string;
  /** First instant of the period (Lagos midnight on the 1st), as a UTC Date. */
  start: Date;
  /** First instant of the next period. */
  end: Date;
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** The wall-clock fields of `at` in Lagos, read through UTC getters of a shifted Date. */
function lagosFields(at: Date): { year: number; month: number; day: number } {
  const shifted = new Date(at.getTime() + LAGOS_OFFSET_MS);
  return { year: shifted.getUTCFullYear(), month: shifted.getUTCMonth(), day: shifted.getUTCDate() };
}

/** UTC instant of Lagos midnight on the given (possibly overflowing) year/month/day. */
const lagosMidnight = (year: number, month: number, day: number): Date =>
  new Date(Date.UTC(year, month, day) - LAGOS_OFFSET_MS);

export function periodOf(at: Date): BillingPeriod {
  const { year, month } = lagosFields(at);
  return {
    key: `${year}-${pad(month + 1)}`,
    start: lagosMidnight(year, month, 1),
    end: lagosMidnight(year, month + 1, 1),
  };
}

/** `YYYY-MM-DD` of the Lagos calendar day containing `at`. */
export function lagosDate(at: Date): string {
  const { year, month, day } = lagosFields(at);
  return `${year}-${pad(month + 1)}-${pad(day)}`;
}

/** Every Lagos date from the first of `at`'s period through `at`'s own day, oldest first. */
export function periodDaysSoFar(at: Date): string[] {
  const { year, month, day } = lagosFields(at);
  const days: string[] = [];
  for (let d = 1; d <= day; d++) days.push(`${year}-${pad(month + 1)}-${pad(d)}`);
  return days;
}

/**
 * Days a paid subscription stays usable past its month, so a renewal charge Paystack retries
 * (or delivers late) lands before access stops.
 */
export const RENEWAL_GRACE_DAYS = 3;
const DAY_MS = 86_400_000;

/**
 * The end of what a monthly payment at `paidAt` buys: the same day and time one calendar month
 * later (the 31st falls back to the month's last day, as Paystack's monthly plans do), plus the
 * grace days.
 */
export function paidThrough(paidAt: Date): Date {
  const y = paidAt.getUTCFullYear();
  const m = paidAt.getUTCMonth();
  const lastDay = new Date(Date.UTC(y, m + 2, 0)).getUTCDate();
  const next = new Date(paidAt);
  next.setUTCDate(1);
  next.setUTCMonth(m + 1);
  next.setUTCDate(Math.min(paidAt.getUTCDate(), lastDay));
  return new Date(next.getTime() + RENEWAL_GRACE_DAYS * DAY_MS);
}

/** The end of access for a subscription whose next charge is due at `due`. */
export const dueWithGrace = (due: Date): Date => new Date(due.getTime() + RENEWAL_GRACE_DAYS * DAY_MS);
