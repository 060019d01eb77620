// What every fuzz property shares: a seeded world, a raw HTTP client that sends exactly the
// bytes a generator made (node:http, not fetch: fetch normalises paths and refuses some methods
// and header bytes), a cheap snapshot of every table (SQLite or PostgreSQL, whichever the
// world runs on), and the three invariants of the hardening issue: no 5xx, no state change on a
// 4xx (nor on a GraphQL answer that executed nothing), /healthz answers within 1 s while the
// request runs and afterwards.
import http from 'node:http';
import { parse } from 'graphql';
import { expect } from 'vitest';
import { createWorld, type World } from '../helpers/world.ts';
import { changedTables, openSnapshotter } from '../helpers/db-snapshot.ts';

export interface FuzzRequest {
  method: string;
  /** Path and query exactly as sent on the request line. */
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface FuzzResponse {
  status: number;
  text: string;
}

/**
 * Runs per property (the Management API and GraphQL get twice as many, each campus kind half):
 * about 3,600 requests, under 20 s in all. FUZZ_RUNS=1500 for a long local run; FUZZ_DEBUG=1
 * prints one line per request (status, ms, method, path) to see what the generators reach.
 */
export const RUNS = Number(process.env.FUZZ_RUNS ?? 300);

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** /healthz probes get connections of their own: a probe never queues behind the request it watches. */
const probeAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** Sends `r` as is; resolves with status and text (a reset socket is a failure of its own). */
export function send(base: string, r: FuzzRequest, timeoutMs = 10_000, via: http.Agent = agent): Promise<FuzzResponse> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...r.headers };
    if (r.body !== undefined) headers['Content-Length'] = r.body.length;
    const req = http.request({ host: hostname, port, method: r.method, path: r.path, headers, agent: via, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(r.body);
  });
}

export interface FuzzWorld {
  w: World;
  /** Every table's row count and digest (test/helpers/db-snapshot.ts), read outside the app. */
  snapshot(): Promise<Record<string, string>>;
  close(): Promise<void>;
}

export async function fuzzWorld(seed: (w: World) => Promise<void> = async () => {}): Promise<FuzzWorld> {
  // The rate limiter runs on the world's manual clock, which never refills a bucket: left on, it
  // would answer most of a long run with 429 before a handler saw the input. (An unknown
  // variable is ignored where the limiter does not exist yet.)
  const w = await createWorld({ RATE_LIMITS: 'off' });
  await seed(w);
  const s = await openSnapshotter(w.databaseUrl);
  return {
    w,
    snapshot: s.snapshot,
    async close() {
      await s.close();
      await w.stop();
    },
  };
}

/** A request's description for a failure message (bodies cut short). */
export function show(r: FuzzRequest): string {
  const body = r.body === undefined ? '' : `\n  body (${r.body.length} bytes): ${JSON.stringify(r.body.subarray(0, 300).toString('latin1'))}`;
  return `${r.method} ${r.path.slice(0, 500)}\n  headers: ${JSON.stringify(r.headers).slice(0, 500)}${body}`;
}

/** Longest a /healthz answer may take, while a request runs or after it. */
const HEALTH_MS = 1000;

/**
 * CPU time (µs) of this thread: the one running the event loop the server shares. Where Node
 * has no per-thread figure (before 23.9), the whole process's, other threads included.
 */
const mainThreadCpu = (): NodeJS.CpuUsage => (process.threadCpuUsage ? process.threadCpuUsage() : process.cpuUsage());

/**
 * A /healthz probe: its status, wall time, and the CPU time this thread spent meanwhile. The
 * server shares this thread, so an event loop kept busy for HEALTH_MS burns about that much CPU
 * here, in one long task or many short ones. A probe slowed by a loaded machine (CI runs other
 * suites beside this one) waits just as long but burns little, and so does one that waits while
 * other threads work (the collector's helpers sweeping a large heap, seen in CI: the process's
 * CPU counts them, this thread's does not). A probe fails when it is slow and this thread was
 * busy for at least half its limit: a real stall is caught on any machine, a starved process is
 * not blamed.
 */
async function probe(base: string): Promise<{ status: number; ms: number; busy: boolean }> {
  const started = Date.now();
  const cpu = mainThreadCpu();
  const health = await send(base, { method: 'GET', path: '/healthz', headers: {} }, 30 * HEALTH_MS, probeAgent);
  const ms = Date.now() - started;
  const now = mainThreadCpu();
  const usedMs = (now.user - cpu.user + now.system - cpu.system) / 1000;
  return { status: health.status, ms, busy: ms >= HEALTH_MS && usedMs >= HEALTH_MS / 2 };
}

/**
 * Probes /healthz back to back until `running` settles, so a probe is always in flight: the
 * server runs in this process, and a request that blocks the event loop holds up the probe
 * sent just before the block (one scheduled during it would only leave afterwards).
 */
async function probeWhile(base: string, running: Promise<unknown>): Promise<void> {
  let settled = false;
  running.then(
    () => (settled = true),
    () => (settled = true),
  );
  do {
    const health = await probe(base).catch((err: Error) => {
      throw new Error(`/healthz failed while the request ran (${err.message})`);
    });
    if (health.status !== 200 || health.busy) throw new Error(`/healthz answered ${health.status} after ${health.ms} ms while the request ran`);
  } while (!settled);
}

/** The GraphQL query text of `r` (a JSON body's `query`, or GET's `?query=`), if any. */
function graphqlQuery(r: FuzzRequest): string | null {
  try {
    if (r.method === 'GET') return new URL(r.path, 'http://x').searchParams.get('query');
    const body: unknown = JSON.parse(r.body?.toString('utf8') ?? '');
    return typeof (body as { query?: unknown })?.query === 'string' ? (body as { query: string }).query : null;
  } catch {
    return null;
  }
}

/** Whether the document holds one operation of one root field (so a null `data` means that field did nothing). */
function singleRootField(query: string): boolean {
  try {
    const ops = parse(query).definitions.filter((d) => d.kind === 'OperationDefinition');
    return ops.length === 1 && ops[0]!.selectionSet.selections.length === 1 && ops[0]!.selectionSet.selections[0]!.kind === 'Field';
  } catch {
    return false;
  }
}

/**
 * A GraphQL answer that reports errors and changed nothing by definition: no `data` (the
 * request failed before execution: parse, validation, limits, variables), or `data: null`
 * from an operation of one root field whose errors all sit on that field (its resolver failed,
 * and a failed write rolls back). Otherwise `data: null` proves nothing: an error below the
 * root field (`setStatusPage { checks(after: "bad") }`) nulls a write that committed, and so
 * does a failing non-null mutation field the data of an earlier root field.
 */
function graphqlDidNothing(r: FuzzRequest, res: FuzzResponse): boolean {
  let body: unknown;
  try {
    body = JSON.parse(res.text);
  } catch {
    return false;
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return false;
  const { errors, data } = body as { errors?: unknown; data?: unknown };
  if (!Array.isArray(errors) || errors.length === 0) return false;
  if (!('data' in body)) return true;
  const atRoot = errors.every((e) => !Array.isArray((e as { path?: unknown })?.path) || (e as { path: unknown[] }).path.length <= 1);
  const query = data === null && atRoot ? graphqlQuery(r) : null;
  return query !== null && singleRootField(query);
}

/**
 * Sends `r` and checks the invariants: not 5xx; a 4xx (or a GraphQL answer that executed
 * nothing) changed no table; /healthz answers in 1 s while `r` runs and after. (A defect that
 * cannot be fixed at once is skipped in its property, before this call, with a comment naming it.)
 */
export async function checkRequest(fw: FuzzWorld, r: FuzzRequest): Promise<FuzzResponse> {
  const before = await fw.snapshot();
  const t0 = Date.now();
  const answer = send(fw.w.url, r);
  const [sent, probed] = await Promise.allSettled([answer, probeWhile(fw.w.url, answer)]);
  if (sent.status === 'rejected') throw new Error(`request failed (${(sent.reason as Error).message}):\n  ${show(r)}`);
  if (probed.status === 'rejected') throw new Error(`${(probed.reason as Error).message}:\n  ${show(r)}`);
  const res = sent.value;
  const after = await fw.snapshot();
  if (process.env.FUZZ_DEBUG) process.stderr.write(`FUZZ ${res.status} ${Date.now() - t0} ${r.method} ${r.path.slice(0, 120)} ${r.body?.length ?? '-'}\n`);
  expect(res.status, `5xx for\n  ${show(r)}\n  answer: ${res.text.slice(0, 300)}`).toBeLessThan(500);
  if (res.status >= 400) {
    expect(changedTables(before, after), `${res.status} changed state for\n  ${show(r)}\n  answer: ${res.text.slice(0, 300)}`).toEqual([]);
  } else if (graphqlDidNothing(r, res)) {
    expect(changedTables(before, after), `${res.status} with only errors changed state for\n  ${show(r)}\n  answer: ${res.text.slice(0, 300)}`).toEqual([]);
  }
  const health = await probe(fw.w.url);
  expect(health.status).toBe(200);
  expect(health.busy, `/healthz took ${health.ms} ms after\n  ${show(r)}`).toBe(false);
  return res;
}
