import { isIP } from "node:net";
import { RequestValidationError } from "../http/errors.ts";

export const FIRST_PARTY_IP_HEADER = "x-first-party-client-ip";

/**
 * The end-user IP a first-party surface forwards. Missing or not an IPv4/IPv6 address: the 422
 * validation body. IPv6 is lower-cased and an IPv4-mapped IPv6 address is reduced to its IPv4
 * form, so one user can't get two caps by spelling the same address twice.
 */
export function firstPartyClientIp(headers: Headers): string {
  const raw = headers.get(FIRST_PARTY_IP_HEADER);
  const value = raw?.trim() ?? "";
  if (!value || isIP(value) === 0) {
    throw new RequestValidationError([
      {
        loc: ["header", FIRST_PARTY_IP_HEADER],
        msg: raw === null ? "first_party keys must send the end user's IP address in X-First-Party-Client-IP" : "X-First-Party-Client-IP must be an IPv4 or IPv6 address",
        type: raw === null ? "missing" : "ip_address",
        input: raw,
        ctx: {},
      },
    ]);
  }
  const lower = value.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  return mapped?.[1] ?? lower;
}
