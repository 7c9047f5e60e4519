import { Elysia } from "elysia";
import { z } from "zod";
import { plansFromConfig } from "../billing/plans.ts";
import { callerUsage, ownerUsage } from "../billing/usage.ts";
import { adminAuth, apiKeyAuth } from "./auth.ts";
import type { AppDeps } from "./deps.ts";
import { adminErrors, CallerUsage, keyAuthErrors, OwnerUsage } from "./schemas.ts";

const OwnerQuery = z.strictObject({
  owner: z.string().min(1, "owner must not be empty").max(200).describe("Owner label whose usage to report"),
});

/** SPEC 4.2 GET /v1/usage (API key): the caller's owner's usage this billing period. */
export const usageRoutes = (deps: Pick<AppDeps, "db" | "config">) => {
  const ctx = { db: deps.db, config: deps.config, plans: plansFromConfig(deps.config) };
  return new Elysia({ name: "usage", detail: { tags: ["Account"], security: [{ apiKey: [] }] } })
    .use(apiKeyAuth(deps))
    .get("/v1/usage", ({ caller }) => callerUsage(ctx, caller), {
      response: { 200: CallerUsage, ...keyAuthErrors },
      detail: {
        summary: "Usage this billing period",
        description:
          "Successful parses this billing period (calendar month, Africa/Lagos) across all of the owner's keys, whatever the calling key's tier (SPEC 4.2); failed parses never count. " +
          "`parses_by_key_tier` splits the count by key tier. Live keys report the plan tier, its cap, and the overage and projected overage in naira, which only live parses incur; test and first_party keys report their free caps (test: per owner, first_party: per end-user IP).",
      },
    });
};

/** SPEC 4.4 GET /v1/admin/usage (admin token): an owner's usage record with success rate and daily counts. */
export const adminUsageRoutes = (deps: Pick<AppDeps, "db" | "config" | "adminTokenHash">) => {
  const ctx = { db: deps.db, config: deps.config, plans: plansFromConfig(deps.config) };
  return new Elysia({ name: "admin-usage", detail: { tags: ["Admin billing"], security: [{ adminToken: [] }] } })
    .use(adminAuth(deps))
    .get("/v1/admin/usage", ({ query }) => ownerUsage(ctx, query.owner), {
      query: OwnerQuery,
      response: { 200: OwnerUsage, ...adminErrors },
      detail: {
        summary: "An owner's usage this billing period",
        description:
          "All successful parses of the owner across every key this period, success rate over finished parses, and a count for every Lagos day of the period so far. " +
          "The plan tier, cap and overage come from live-key parses; an owner without an active subscription reports tier `none` and cap 0.",
      },
    });
};
