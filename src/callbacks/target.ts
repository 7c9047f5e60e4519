import { lookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";

/**
 * Where a completion callback may go (no SSRF): public unicast addresses only, unless the host is
 * listed in CALLBACK_ALLOWED_HOSTS. Checked twice: the URL's shape when the job is created (a
 * literal private address is refused at once), and the resolved addresses at every send, on the
 * connection itself (see deliver.ts: the socket connects to the address checked here, so a name
 * that changes its answer between check and connect cannot slip through).
 */

/** Host names (lower case) and IP literals that may be private or plain http (CALLBACK_ALLOWED_HOSTS). */
export type AllowedHosts = ReadonlySet<string>;

export function allowedHosts(list: string | undefined): AllowedHosts {
  return new Set((list ?? "").split(",").map((h) => h.trim().toLowerCase().replace(/^\[|\]$/g, "")).filter((h) => h !== ""));
}

/** True for an address on the public internet: ipaddr.js's "unicast" range (not private, loopback, link-local, CGNAT, reserved, ...). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  // IPv4-mapped IPv6 (::ffff:10.0.0.1) is judged as the IPv4 address it is.
  return ipaddr.process(address).range() === "unicast";
}

const hostOf = (url: URL) => url.hostname.toLowerCase().replace(/^\[|\]$/g, "");

/** Why `raw` cannot be a callback URL, or the URL. */
export function checkCallbackUrl(raw: string, allowed: AllowedHosts): { ok: true; url: URL } | { ok: false; reason: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: "must be an absolute http(s) URL" };
  }
  const host = hostOf(url);
  const listed = allowed.has(host);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && listed)) {
    return { ok: false, reason: "must be https (plain http only for a host in CALLBACK_ALLOWED_HOSTS): the callback carries the statement's data" };
  }
  if (url.username || url.password) return { ok: false, reason: "must not carry credentials; authenticate callbacks by their signature" };
  if (!listed && ipaddr.isValid(host) && !isPublicAddress(host)) {
    return { ok: false, reason: `${host} is not a public address (private, loopback, link-local or reserved); list it in CALLBACK_ALLOWED_HOSTS to allow it` };
  }
  return { ok: true, url };
}

export class RefusedTarget extends Error {
  override name = "RefusedTarget";
}

/**
 * The address to connect to for `host`: every address the name resolves to must be public (one
 * private answer refuses the whole name, so a round-robin trick cannot pick it), unless the host
 * is allowed. Throws RefusedTarget.
 */
export async function resolveTarget(host: string, allowed: AllowedHosts): Promise<{ address: string; family: 4 | 6 }> {
  const name = host.toLowerCase().replace(/^\[|\]$/g, "");
  const answers = ipaddr.isValid(name) ? [{ address: name, family: ipaddr.parse(name).kind() === "ipv6" ? 6 : 4 }] : await lookup(name, { all: true, verbatim: true });
  if (answers.length === 0) throw new RefusedTarget(`${name} does not resolve`);
  if (!allowed.has(name)) {
    const bad = answers.find((a) => !isPublicAddress(a.address));
    if (bad) throw new RefusedTarget(`${name} resolves to ${bad.address}, which is not a public address`);
  }
  const first = answers[0]!;
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}
