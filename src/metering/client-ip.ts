import { isIP } from "node:net";
import { RequestValidationError } from "../http/errors.ts";

export const FIRST_PARTY_IP_HEADER = "x-first-party-client-ip";

/** `::ffff:` followed by the IPv4 address as two hex groups, in the URL parser's canonical text. */
const MAPPED_V4 = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/;

/**
 * One spelling per address, so one user cannot get two caps by writing the same address twice:
 * IPv4 as is; IPv6 without its zone id (`%eth0` names an interface of the sender, not another
 * user), in the WHATWG URL parser's canonical form (RFC 5952: lower case, no leading zeros, the
 * longest zero run as `::`), and an IPv4-mapped address as the IPv4 address it maps.
 */
export function canonicalIp(value: string): string {
  if (isIP(value) === 4) return value;
  const bare = value.replace(/%.*$/, "");
  const canonical = new URL(`http://[${bare}]/`).hostname.slice(1, -1);
  const mapped = MAPPED_V4.exec(canonical);
  if (!mapped) return canonical;
  const [hi, lo] = [Number.parseInt(mapped[1]!, 16), Number.parseInt(mapped[2]!, 16)];
  return [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff].join(".");
}

/**
 * The end-user IP a first-party surface forwards. Missing or not an IPv4/IPv6 address: the 422
 * validation body. The address is counted in its canonical form (canonicalIp).
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
  return canonicalIp(value);
}
