// Healthchecks' INTEGRATIONS_ALLOW_PRIVATE_IPS: by default an integration may not make the
// server connect to a private, loopback or link-local address. Anyone with a read-write API
// key can create a webhook, and a webhook to 169.254.169.254 or an intranet host would turn
// the gateway into a door to its own network. The check runs on the address the connection
// really uses (after DNS), so a name that resolves to a private address is refused too.
import dns from 'node:dns';
import net from 'node:net';
import { Agent } from 'undici';

const PRIVATE = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  PRIVATE.addSubnet(prefix, bits, 'ipv4');
}
for (const [prefix, bits] of [
  ['::', 127],
  // NAT64 and 6to4 embed an IPv4 address; site-local is private like fc00::/7.
  ['64:ff9b::', 96],
  ['2002::', 16],
  ['fec0::', 10],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  PRIVATE.addSubnet(prefix, bits, 'ipv6');
}

export const PRIVATE_IP_ERROR = 'Connections to private IP addresses are not allowed';

export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return false;
  if (family === 6) {
    // An IPv4-mapped IPv6 address is the IPv4 address.
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return PRIVATE.check(mapped[1]!, 'ipv4');
    return PRIVATE.check(address, 'ipv6');
  }
  return PRIVATE.check(address, 'ipv4');
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/** dns.lookup that fails for private addresses (net.connect calls it with and without `all`). */
export function publicLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback) {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '');
    const allowed = addresses.filter((a) => !isPrivateAddress(a.address));
    if (allowed.length === 0) return callback(Object.assign(new Error(PRIVATE_IP_ERROR), { code: 'EPRIVATEIP' }), '');
    if (options.all) return callback(null, allowed);
    callback(null, allowed[0]!.address, allowed[0]!.family);
  });
}

/** The HTTP client for integrations when private addresses are not allowed. */
export const publicOnlyAgent = new Agent({ connect: { lookup: publicLookup as never } });

/** True when the URL names a private address literally (no lookup happens for those). */
export function isPrivateLiteral(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || isPrivateAddress(host);
}
