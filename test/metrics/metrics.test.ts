// /metrics: what the Prometheus scrape shows after real requests, pings, flips, monitor passes
// and subscriptions.
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createClient } from 'graphql-ws';
import { T0 } from '../helpers/world.ts';
import { useWorld } from '../helpers/fixtures.ts';

const w = useWorld();

async function scrape(): Promise<(name: string, labels?: Record<string, string>) => number> {
  const res = await fetch(`${w.url}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/plain');
  const text = await res.text();
  return (name, labels = {}) => {
    const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
    let total = 0;
    for (const line of text.split('\n')) {
      if (line.startsWith('#')) continue;
      const m = line.match(/^([a-zA-Z_:][\w:]*)(\{[^}]*\})? (\S+)$/);
      if (!m || m[1] !== name) continue;
      if (wanted.every((l) => (m[2] ?? '').includes(l))) total += Number(m[3]);
    }
    return total;
  };
}

const newCheck = async (body: Record<string, unknown> = {}) => (await w.api('POST', '/api/v2/checks/', { body: { timeout: 60, grace: 60, ...body } })).json.uuid as string;

describe('/metrics', () => {
  it('counts HTTP requests by route pattern and status, never by raw URL', async () => {
    const code = await newCheck();
    const before = await scrape();
    await w.ping(`/ping/${code}`);
    await w.ping(`/ping/${code}/fail`);
    await w.ping('/ping/00000000-0000-4000-8000-000000000000');
    const after = await scrape();
    const count = (m: typeof before, status: string) => m('gateway_http_request_duration_seconds_count', { route: '/ping/*', status, method: 'GET' });
    expect(count(after, '200') - count(before, '200')).toBe(2);
    expect(count(after, '404') - count(before, '404')).toBe(1);
    const text = await (await fetch(`${w.url}/metrics`)).text();
    expect(text).not.toContain(code);
  });

  it('counts pings by kind, flips by status, and SQL statements', async () => {
    const code = await newCheck();
    const before = await scrape();
    await w.ping(`/ping/${code}/start`);
    await w.ping(`/ping/${code}`);
    await w.ping(`/ping/${code}/fail`);
    const after = await scrape();
    const diff = (name: string, labels?: Record<string, string>) => after(name, labels) - before(name, labels);
    expect(diff('gateway_pings_ingested_total', { kind: 'start' })).toBe(1);
    expect(diff('gateway_pings_ingested_total', { kind: 'success' })).toBe(1);
    expect(diff('gateway_pings_ingested_total', { kind: 'fail' })).toBe(1);
    expect(diff('gateway_flips_recorded_total', { new_status: 'up' })).toBe(1);
    expect(diff('gateway_flips_recorded_total', { new_status: 'down', reason: 'fail' })).toBe(1);
    // Each ping is one transaction of a few statements.
    expect(diff('gateway_sql_statements_total')).toBeGreaterThanOrEqual(3 * 4);
  });

  it('reports monitor lag: now minus the going-down time of each flip it records', async () => {
    const code = await newCheck({ timeout: 60, grace: 60 });
    w.clock.set(T0);
    await w.ping(`/ping/${code}`);
    const before = await scrape();
    // Goes down at T0 + 120 s; the monitor looks 1.5 s later.
    w.clock.set(new Date(T0.getTime() + 121_500));
    await w.app.monitor.tick();
    const after = await scrape();
    const diff = (name: string, labels?: Record<string, string>) => after(name, labels) - before(name, labels);
    expect(diff('gateway_monitor_lag_seconds_count')).toBe(1);
    expect(diff('gateway_monitor_lag_seconds_sum')).toBeCloseTo(1.5, 5);
    expect(diff('gateway_monitor_lag_seconds_bucket', { le: '1' })).toBe(0);
    expect(diff('gateway_monitor_lag_seconds_bucket', { le: '1.25' })).toBe(0);
    expect(diff('gateway_monitor_lag_seconds_bucket', { le: '1.5' })).toBe(1);
    expect(diff('gateway_monitor_lag_seconds_bucket', { le: '2' })).toBe(1);
    expect(diff('gateway_flips_recorded_total', { new_status: 'down', reason: 'timeout' })).toBe(1);
    // The pass itself was timed.
    expect(diff('gateway_monitor_pass_duration_seconds_count')).toBe(1);
    expect(diff('gateway_monitor_pass_duration_seconds_sum')).toBeGreaterThan(0);
  });

  it('shows live subscriptions and WebSocket connections, and GraphQL operations', async () => {
    // Two identical subscriptions share one listener, and still count as two subscribers.
    const clients = [0, 1].map(() => createClient({ url: `${w.url.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { 'X-Api-Key': w.alice.api_key }, retryAttempts: 0 }));
    const stops = clients.map((c) => c.subscribe({ query: 'subscription { flips { newStatus } }' }, { next: () => {}, error: () => {}, complete: () => {} }));
    let m = await scrape();
    for (let i = 0; i < 100 && m('gateway_subscriptions_active') < 2; i++) {
      await new Promise((r) => setTimeout(r, 10));
      m = await scrape();
    }
    expect(m('gateway_subscriptions_active')).toBe(2);
    expect(m('gateway_websocket_connections')).toBe(2);
    stops.forEach((stop) => stop());
    await Promise.all(clients.map((c) => c.dispose()));
    for (let i = 0; i < 100 && (m('gateway_subscriptions_active') > 0 || m('gateway_websocket_connections') > 0); i++) {
      await new Promise((r) => setTimeout(r, 10));
      m = await scrape();
    }
    expect(m('gateway_subscriptions_active')).toBe(0);
    expect(m('gateway_websocket_connections')).toBe(0);

    const before = m('graphql_envelop_request_duration_count');
    const res = await w.api('POST', '/graphql', { body: { query: '{ project { name } }' } });
    expect(res.status).toBe(200);
    expect((await scrape())('graphql_envelop_request_duration_count') - before).toBe(1);
  });

  it('answers /healthz without the database', async () => {
    const sent: string[] = [];
    const stop = w.app.onStatement((sql) => sent.push(sql));
    const res = await fetch(`${w.url}/healthz`);
    stop();
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('OK');
    expect(sent).toEqual([]);
  });
});
