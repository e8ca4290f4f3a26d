import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

/**
 * Where a webhook may be sent: https to a public address. A private, loopback, link-local or
 * otherwise special address would let whoever registers an endpoint make the service call
 * into its own network (the cloud's metadata service, the database); with `allowPrivate`
 * (development only), such addresses are admitted, and plain http to them.
 */
const SPECIAL = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  SPECIAL.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b::", 96],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  SPECIAL.addSubnet(network, prefix, "ipv6");
}

/** True for an address no webhook may reach in production. */
export function isSpecialAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return SPECIAL.check(address, "ipv4");
  if (family !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return SPECIAL.check(mapped[1], "ipv4");
  return SPECIAL.check(address, "ipv6");
}

/** Why a URL may not receive webhooks, or null when it may. Resolves its host. */
export async function targetProblem(raw: string, allowPrivate: boolean): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "url must be an absolute https URL";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return "url must be an absolute https URL";
  if (url.username || url.password) return "url must not carry a user name or password";
  const addresses = await addressesOf(url.hostname);
  if (addresses.length === 0) return `url's host ${url.hostname} does not resolve`;
  const special = addresses.some(isSpecialAddress);
  if (special && !allowPrivate)
    return "url must not resolve to a private, loopback or link-local address";
  // Plain http only to this machine's network, where a development site listens.
  if (url.protocol !== "https:" && !(allowPrivate && addresses.every(isSpecialAddress)))
    return "url must be an https URL";
  return null;
}

async function addressesOf(hostname: string): Promise<string[]> {
  const host = hostname.replace(/^\[|\]$/g, "");
  if (isIP(host)) return [host];
  try {
    return (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
  } catch {
    return [];
  }
}
