// Who the client is: X-Forwarded-For believed only from TRUSTED_PROXIES and walked from the
// right, so entries a client wrote itself never become its address.
import { describe, expect, it } from 'vitest';
import { clientAddress, parseTrustedProxies, plainAddress, trustedProxies } from '../../src/http/client-address.ts';
import { ConfigError, loadConfig } from '../../src/config/index.ts';

const trusted = trustedProxies(parseTrustedProxies('127.0.0.1, 10.0.0.0/8,::1,fd00::/8'));

describe('clientAddress', () => {
  it('is the peer, whatever the headers say, when nobody is trusted or the peer is not', () => {
    expect(clientAddress('203.0.113.9', '198.51.100.1', null)).toBe('203.0.113.9');
    expect(clientAddress('203.0.113.9', '198.51.100.1', trusted)).toBe('203.0.113.9');
    expect(clientAddress('::ffff:203.0.113.9', '10.0.0.1', trusted)).toBe('203.0.113.9');
    expect(clientAddress(undefined, '198.51.100.1', trusted)).toBeUndefined();
  });

  it('is the forwarded address from a trusted proxy, its port dropped', () => {
    expect(clientAddress('127.0.0.1', '198.51.100.1', trusted)).toBe('198.51.100.1');
    expect(clientAddress('::ffff:127.0.0.1', '198.51.100.1:51234', trusted)).toBe('198.51.100.1');
    expect(clientAddress('127.0.0.1', undefined, trusted)).toBe('127.0.0.1');
  });

  it('walks a chain of trusted proxies from the right (CIDR blocks included)', () => {
    // client -> 10.1.2.3 (edge) -> 10.9.9.9 (inner) -> 127.0.0.1 (local nginx) -> us
    expect(clientAddress('127.0.0.1', '198.51.100.1, 10.1.2.3, 10.9.9.9', trusted)).toBe('198.51.100.1');
    // Repeated headers count as one list, in order.
    expect(clientAddress('127.0.0.1', ['198.51.100.1', '10.1.2.3'], trusted)).toBe('198.51.100.1');
  });

  it('ignores spoofed entries left of the first untrusted hop', () => {
    // The client sent "X-Forwarded-For: 1.1.1.1, 10.0.0.7"; the proxy appended the real 198.51.100.1.
    expect(clientAddress('127.0.0.1', '1.1.1.1, 10.0.0.7, 198.51.100.1', trusted)).toBe('198.51.100.1');
  });

  it('stops at a malformed entry: the trusted hop that reported it is the client', () => {
    expect(clientAddress('127.0.0.1', 'nonsense, 10.0.0.7', trusted)).toBe('10.0.0.7');
    expect(clientAddress('127.0.0.1', 'nonsense', trusted)).toBe('127.0.0.1');
  });

  it('takes the leftmost address when every hop is trusted', () => {
    expect(clientAddress('127.0.0.1', '10.0.0.5, 10.0.0.6', trusted)).toBe('10.0.0.5');
  });

  it('speaks IPv6: trusted peers, blocks and forwarded addresses', () => {
    expect(clientAddress('::1', '2001:db8::7', trusted)).toBe('2001:db8::7');
    expect(clientAddress('fd00::1:2', '[2001:db8::7]:443, fd12::9', trusted)).toBe('2001:db8::7');
    expect(clientAddress('2001:db8::1', '198.51.100.1', trusted)).toBe('2001:db8::1');
  });

  it('plainAddress: mapped IPv4 and ports are dropped, IPv6 kept', () => {
    expect(plainAddress('::ffff:10.0.0.1')).toBe('10.0.0.1');
    expect(plainAddress('10.0.0.1:80')).toBe('10.0.0.1');
    expect(plainAddress('[::1]:80')).toBe('::1');
    expect(plainAddress('2001:db8::1')).toBe('2001:db8::1');
  });
});

describe('TRUSTED_PROXIES', () => {
  it('is empty (nobody trusted) when unset', () => {
    expect(loadConfig({}).trustedProxies).toEqual([]);
    expect(trustedProxies([])).toBeNull();
  });

  it('takes addresses and CIDR blocks of both families', () => {
    expect(loadConfig({ TRUSTED_PROXIES: '127.0.0.1, 10.0.0.0/8,::1 ,fd00::/8' }).trustedProxies).toEqual(['127.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8']);
  });

  it.each(['localhost', '10.0.0.0/33', '::1/129', '10.0.0.1/8/8', '10.0.0.256'])('refuses %s at start, naming it', (bad) => {
    let error: unknown;
    try {
      loadConfig({ TRUSTED_PROXIES: `127.0.0.1,${bad}` });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain(`invalid TRUSTED_PROXIES "127.0.0.1,${bad}": expected comma-separated addresses and CIDR blocks such as 127.0.0.1,10.0.0.0/8,::1: "${bad}" is not an IP address or CIDR block`);
  });
});
