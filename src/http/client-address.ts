// Who is the client: the socket's peer, unless the peer is one of TRUSTED_PROXIES; then the
// X-Forwarded-For chain is walked from the right (the hop nearest to us) and the first address
// that is not a trusted proxy is the client. Entries further left were written by whoever sent
// the request first and can be anything, so they are never believed on their own. The same
// answer feeds the rate limits, the access log, the ping log's remote_addr and GraphQL's
// ctx.clientAddress; X-Forwarded-Proto and X-Request-Id count only from a trusted peer too.
import { BlockList, isIP } from 'node:net';
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';

/** The proxies whose forwarding headers are believed; null: nobody's. */
export interface TrustedProxies {
  has(address: string): boolean;
}

/** An address as logged and counted: IPv4-mapped IPv6 as plain IPv4, a port removed. */
export function plainAddress(raw: string): string {
  let a = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(a);
  if (bracketed) a = bracketed[1]!;
  const v4WithPort = /^(\d+\.\d+\.\d+\.\d+):\d+$/.exec(a);
  if (v4WithPort) a = v4WithPort[1]!;
  if (/^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(a)) a = a.slice(7);
  return a;
}

/**
 * TRUSTED_PROXIES' entries ("127.0.0.1", "10.0.0.0/8", "::1", "fd00::/8"), checked; throws an
 * Error naming the first entry that is neither an address nor a CIDR block.
 */
export function parseTrustedProxies(raw: string): string[] {
  const entries = raw.split(',').map((e) => e.trim()).filter(Boolean);
  for (const entry of entries) {
    const [address, bits, extra] = entry.split('/');
    const family = isIP(address ?? '');
    const max = family === 4 ? 32 : 128;
    const okBits = bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= max);
    if (!family || !okBits || extra !== undefined) throw new Error(`"${entry}" is not an IP address or CIDR block (e.g. 10.0.0.0/8, fd00::/8)`);
  }
  return entries;
}

export function trustedProxies(entries: readonly string[]): TrustedProxies | null {
  if (entries.length === 0) return null;
  const list = new BlockList();
  for (const entry of entries) {
    const [address, bits] = entry.split('/') as [string, string | undefined];
    const type = isIP(address) === 4 ? 'ipv4' : 'ipv6';
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(bits), type);
  }
  return {
    has(raw) {
      const address = plainAddress(raw);
      const family = isIP(address);
      return family !== 0 && list.check(address, family === 4 ? 'ipv4' : 'ipv6');
    },
  };
}

/** Node joins repeated headers with ", " except a few; X-Forwarded-For may come as an array. */
const joined = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(',') : (value ?? ''));

/**
 * The client's address: `peer` itself unless it is trusted; then the rightmost X-Forwarded-For
 * entry that is not trusted. A malformed entry stops the walk: the trusted hop that reported
 * it is the furthest we can vouch for. Every hop trusted: the leftmost.
 */
export function clientAddress(peer: string | undefined, forwardedFor: string | string[] | undefined, trusted: TrustedProxies | null): string | undefined {
  if (peer === undefined) return undefined;
  let client = plainAddress(peer);
  if (!trusted?.has(client)) return client;
  const hops = joined(forwardedFor).split(',').map((h) => h.trim()).filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = plainAddress(hops[i]!);
    if (!isIP(hop)) return client;
    client = hop;
    if (!trusted.has(hop)) return client;
  }
  return client;
}

export interface ClientInfo {
  /** The client's address (see clientAddress); undefined when the socket has gone. */
  address: string | undefined;
  /** The peer is a trusted proxy: its X-Forwarded-Proto and X-Request-Id are believed. */
  viaTrustedProxy: boolean;
  /** "https" or "http": X-Forwarded-Proto's first entry from a trusted proxy, else the socket's. */
  scheme: string;
}

export function clientInfo(req: IncomingMessage, trusted: TrustedProxies | null): ClientInfo {
  const peer = req.socket.remoteAddress;
  const viaTrustedProxy = peer !== undefined && trusted !== null && trusted.has(peer);
  const own = (req.socket as TLSSocket).encrypted ? 'https' : 'http';
  const forwardedProto = viaTrustedProxy ? joined(req.headers['x-forwarded-proto']).split(',')[0]!.trim().toLowerCase() : '';
  return {
    address: clientAddress(peer, req.headers['x-forwarded-for'], trusted),
    viaTrustedProxy,
    scheme: forwardedProto === 'https' || forwardedProto === 'http' ? forwardedProto : own,
  };
}

// The front door works each request's client out once (gateway-server.ts); handlers read it
// here. A request that did not pass the front door (a test calling a handler) gets its peer.
const known = new WeakMap<IncomingMessage, ClientInfo>();

export function rememberClient(req: IncomingMessage, trusted: TrustedProxies | null): ClientInfo {
  const info = clientInfo(req, trusted);
  known.set(req, info);
  return info;
}

export function clientOf(req: IncomingMessage): ClientInfo {
  return known.get(req) ?? clientInfo(req, null);
}
