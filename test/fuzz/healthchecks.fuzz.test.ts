// Fuzzing the Healthchecks-compatible routes (Management API, pings, badges) with hostile
// input: no 5xx, no state change on a 4xx, /healthz still answering. See harness.ts.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { body, garbageToken, method, queryString, segment } from './arbitraries.ts';
import { checkRequest, fuzzWorld, RUNS, type FuzzRequest, type FuzzWorld } from './harness.ts';

let fw: FuzzWorld;
/** Identifiers that reach real records, so generated requests get past the lookups. */
const ids: { aliceCheck: string; aliceUnique: string; bobCheck: string; pingKey: string; badgeKey: string; checkBadgeKey: string; project: string } = {} as never;

beforeAll(async () => {
  fw = await fuzzWorld(async (w) => {
    const a = (await w.api('POST', '/api/v3/checks/', { body: { name: 'backup', slug: 'backup', tags: 'prod db', timeout: 3600 } })).json;
    await w.api('POST', '/api/v3/checks/', { body: { name: 'cron', slug: 'cron', schedule: '*/5 * * * *', tz: 'Europe/Riga' } });
    const b = (await w.api('POST', '/api/v3/checks/', { key: w.bob.api_key, body: { name: 'bob' } })).json;
    await w.ping(`/ping/${a.uuid}`, { method: 'POST', body: 'hello' });
    await w.ping(`/ping/${a.uuid}/fail`);
    await w.channel(w.alice, {});
    ids.aliceCheck = a.uuid;
    // The unique key is shown to read-only keys only.
    ids.aliceUnique = (await w.api('GET', `/api/v3/checks/${a.uuid}`, { key: w.alice.api_key_readonly })).json.unique_key;
    ids.bobCheck = b.uuid;
    ids.pingKey = w.alice.ping_key;
    ids.checkBadgeKey = String(a.badge_url).split('/').pop()!.replace(/\.svg$/, '');
    ids.project = w.alice.id;
    ids.badgeKey = w.alice.badge_key;
  });
});
afterAll(() => fw?.close());

const CHECK_FIELDS = ['name', 'slug', 'tags', 'desc', 'timeout', 'grace', 'schedule', 'tz', 'manual_resume', 'methods', 'channels', 'unique', 'subject', 'subject_fail', 'start_kw', 'success_kw', 'failure_kw', 'filter_subject', 'filter_body', 'api_key', 'filter_default_fail'];

const apiKey = () =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constant(fw.w.alice.api_key) },
    { weight: 1, arbitrary: fc.constant(fw.w.alice.api_key_readonly) },
    { weight: 1, arbitrary: fc.constant(fw.w.bob.api_key) },
    { weight: 1, arbitrary: garbageToken },
    { weight: 1, arbitrary: fc.constant(null) },
  );

/** An :id segment: alice's check (uuid or unique key), bob's, or garbage. */
const checkId = () => fc.oneof({ weight: 4, arbitrary: fc.constantFrom(ids.aliceCheck, ids.aliceCheck, ids.aliceUnique, ids.bobCheck) }, { weight: 1, arbitrary: segment });

/** Paths from the Management API's route table with random segments in the holes. */
const apiPath = () =>
  fc
    .tuple(
      fc.oneof({ weight: 6, arbitrary: fc.constantFrom('v1', 'v2', 'v3') }, { weight: 1, arbitrary: fc.constantFrom('v4', 'v0', 'V3', '%76%33') }),
      fc.oneof(
        fc.constant('checks/'),
        fc.constant('checks'),
        checkId().map((id) => `checks/${id}`),
        fc.tuple(checkId(), fc.constantFrom('pause', 'resume', 'pings/', 'flips/', 'flips', 'pings')).map(([id, s]) => `checks/${id}/${s}`),
        fc.tuple(checkId(), fc.oneof(fc.constantFrom('1', '2', '0'), segment)).map(([id, n]) => `checks/${id}/pings/${n}/body`),
        fc.constantFrom('channels/', 'badges/', 'status/'),
        segment.map((s) => `checks/${s}/${s}`),
      ),
      queryString,
    )
    .map(([v, rest, q]) => `/api/${v}/${rest}${q}`);

function withBody(r: Omit<FuzzRequest, 'body'>, b: { body?: Buffer; contentType?: string }): FuzzRequest {
  const headers = { ...r.headers };
  if (b.contentType !== undefined) headers['Content-Type'] = b.contentType;
  return { ...r, headers, body: b.body };
}

describe('fuzzing the Healthchecks routes', () => {
  it('Management API: any method, path, query, body and key: no 5xx, no change on 4xx', async () => {
    await fc.assert(
      fc.asyncProperty(method, apiPath(), apiKey(), body(CHECK_FIELDS), async (m, path, key, b) => {
        const headers: Record<string, string> = {};
        if (key !== null) headers['X-Api-Key'] = key;
        await checkRequest(fw, withBody({ method: m, path, headers }, b));
      }),
      { numRuns: RUNS * 2 },
    );
  });

  it('ping endpoints: uuids, ping keys, slugs, signals and exit codes, any body: no 5xx, no change on 4xx', async () => {
    const target = fc.oneof(
      fc.constantFrom(ids.aliceCheck, ids.bobCheck).map((u) => [u]),
      fc.tuple(fc.constantFrom(ids.pingKey, 'x'.repeat(22)), fc.oneof(fc.constantFrom('backup', 'cron', 'new-one'), segment)),
      fc.array(segment, { minLength: 1, maxLength: 4 }),
    );
    const signal = fc.oneof(fc.constantFrom([], ['start'], ['fail'], ['log'], ['0'], ['1'], ['255'], ['256'], ['4294967296'], ['99999999999999999999'], ['-1'], ['']), segment.map((s) => [s]));
    const query = fc.oneof(queryString, fc.constantFrom('?create=1', '?rid=' + '1'.repeat(40), '?rid=ad8c4b3a-37e1-4c69-a0ad-0d0a2c3b6e36', '?create=1&rid=%FF'));
    await fc.assert(
      fc.asyncProperty(method, target, signal, query, body(['a']), async (m, t, s, q, b) => {
        const path = `/ping/${[...t, ...s].join('/')}${q}`;
        await checkRequest(fw, withBody({ method: m, path, headers: { 'User-Agent': 'fuzz' } }, b));
      }),
      { numRuns: RUNS },
    );
  });

  it('badges: any path under /badge and /b: no 5xx, and never a change', async () => {
    const file = fc.tuple(fc.oneof(fc.constantFrom(ids.checkBadgeKey, 'x'), segment), fc.constantFrom('.svg', '.json', '.shields', '.png', '', '.', '.svg.svg'));
    const path = fc.oneof(
      fc.tuple(fc.constantFrom('0', '2', '3', '99999999999999999999', '-1', 'a'), file).map(([n, [k, e]]) => `/b/${n}/${k}${e}`),
      fc.tuple(fc.oneof(fc.constantFrom(ids.project, ids.badgeKey), segment), segment, file).map(([p, sig, [k, e]]) => `/badge/${p}/${sig}/${k}${e}`),
      fc.tuple(fc.oneof(fc.constantFrom(ids.project, ids.badgeKey), segment), segment, fc.constantFrom('.svg', '.json', '-2.svg')).map(([p, sig, e]) => `/badge/${p}/${sig}${e}`),
    );
    await fc.assert(
      fc.asyncProperty(method, path, queryString, async (m, p, q) => {
        const before = await fw.snapshot();
        const res = await checkRequest(fw, { method: m, path: p + q, headers: {} });
        // A badge is read-only whatever its status.
        if (res.status < 400) expectUnchanged(before, await fw.snapshot(), m + ' ' + p + q);
      }),
      { numRuns: RUNS },
    );
  });

  it('any path at all (prefixes from every route family): no 5xx, no change on 4xx', async () => {
    const prefix = fc.constantFrom('', '/api', '/api/v3', '/ping', '/badge', '/b', '/people', '/blog', '/graphql', '/healthz', '/metrics', '/projects', `/projects/${ids.project}/metrics`, '/login', '//', '/./', '/%2e%2e');
    await fc.assert(
      fc.asyncProperty(method, prefix, fc.array(segment, { maxLength: 5 }), queryString, apiKey(), async (m, p, segs, q, key) => {
        const headers: Record<string, string> = {};
        if (key !== null) headers['X-Api-Key'] = key;
        const path = `${p}/${segs.join('/')}${q}`;
        await checkRequest(fw, { method: m, path: path.startsWith('/') ? path : `/${path}`, headers });
      }),
      { numRuns: RUNS },
    );
  });
});

function expectUnchanged(before: Record<string, string>, after: Record<string, string>, what: string) {
  const changed = Object.keys(before).filter((t) => before[t] !== after[t]);
  if (changed.length) throw new Error(`${what} changed ${changed.join(', ')}`);
}
