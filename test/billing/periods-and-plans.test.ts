import { describe, expect, test } from "bun:test";
import { lagosDate, paidThrough, periodDaysSoFar, periodOf } from "../../src/billing/periods.ts";
import { koboToNaira, overageParses, plansFromConfig } from "../../src/billing/plans.ts";
import { ConfigError, loadConfig } from "../../src/config.ts";

describe("billing periods (Africa/Lagos calendar months)", () => {
  test("the period turns at Lagos midnight on the 1st, which is 23:00 UTC the day before", () => {
    expect(periodOf(new Date("2026-01-31T22:59:59.999Z")).key).toBe("2026-01");
    expect(periodOf(new Date("2026-01-31T23:00:00.000Z")).key).toBe("2026-02");
    expect(periodOf(new Date("2026-12-31T23:00:00.000Z")).key).toBe("2027-01");
    const feb = periodOf(new Date("2028-02-15T12:00:00Z"));
    expect(feb.start.toISOString()).toBe("2028-01-31T23:00:00.000Z");
    expect(feb.end.toISOString()).toBe("2028-02-29T23:00:00.000Z"); // leap year
  });

  test("days are Lagos dates and the period so far lists every one of them", () => {
    expect(lagosDate(new Date("2026-03-09T23:30:00Z"))).toBe("2026-03-10");
    expect(periodDaysSoFar(new Date("2026-03-01T00:00:00Z"))).toEqual(["2026-03-01"]);
    const days = periodDaysSoFar(new Date("2026-04-30T22:59:00Z"));
    expect(days.length).toBe(30);
    expect(days[0]).toBe("2026-04-01");
    expect(days.at(-1)).toBe("2026-04-30");
  });
});

describe("plans", () => {
  test("defaults: starter 1,000/₦9,500/₦15, growth 10,000/₦35,000/₦12, scale 100,000/₦150,000/₦8, in kobo", () => {
    const plans = plansFromConfig(loadConfig({}));
    expect(plans.starter).toEqual({ tier: "starter", monthlyCap: 1000, priceKobo: 950_000, overageKoboPerParse: 1500, paystackPlanCode: undefined });
    expect(plans.growth).toMatchObject({ monthlyCap: 10_000, priceKobo: 3_500_000, overageKoboPerParse: 1200 });
    expect(plans.scale).toMatchObject({ monthlyCap: 100_000, priceKobo: 15_000_000, overageKoboPerParse: 800 });
  });

  test("config overrides, with naira amounts to two decimals and bad amounts refused by name", () => {
    const plans = plansFromConfig(loadConfig({ PLAN_GROWTH_OVERAGE_NAIRA: "12.5", PLAN_GROWTH_MONTHLY_CAP: "20", PAYSTACK_PLAN_GROWTH: "PLN_g" }));
    expect(plans.growth).toMatchObject({ monthlyCap: 20, overageKoboPerParse: 1250, paystackPlanCode: "PLN_g" });
    expect(() => loadConfig({ PLAN_SCALE_PRICE_NAIRA: "1.234" })).toThrow(ConfigError);
    expect(() => loadConfig({ PLAN_SCALE_PRICE_NAIRA: "-5" })).toThrow(/PLAN_SCALE_PRICE_NAIRA/);
  });

  test("overage is the parses past the cap, priced exactly in kobo", () => {
    expect(overageParses(999, 1000)).toBe(0);
    expect(overageParses(1000, 1000)).toBe(0);
    expect(overageParses(1001, 1000)).toBe(1);
    expect(overageParses(1010, 1000)).toBe(10);
    expect(koboToNaira(10 * 1500)).toBe("150.00");
    expect(koboToNaira(0)).toBe("0.00");
    expect(koboToNaira(3 * 1250)).toBe("37.50");
    expect(koboToNaira(7)).toBe("0.07");
    expect(koboToNaira(123_456_789_00)).toBe("123456789.00");
    expect(() => koboToNaira(0.5)).toThrow(RangeError);
  });

  test("a monthly payment lasts to the same day next month (or that month's last day) plus three days of grace", () => {
    expect(paidThrough(new Date("2026-03-15T08:30:00.000Z")).toISOString()).toBe("2026-04-18T08:30:00.000Z");
    expect(paidThrough(new Date("2026-01-31T23:00:00.000Z")).toISOString()).toBe("2026-03-03T23:00:00.000Z");
    expect(paidThrough(new Date("2028-01-31T00:00:00.000Z")).toISOString()).toBe("2028-03-03T00:00:00.000Z");
    expect(paidThrough(new Date("2026-12-10T00:00:00.000Z")).toISOString()).toBe("2027-01-13T00:00:00.000Z");
  });
});
