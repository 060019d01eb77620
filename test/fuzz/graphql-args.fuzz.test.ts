// Fuzzing every argument of every query and mutation field the schema has (read from the
// schema: schema-targets.ts), as a caller with both credentials, with long and odd strings,
// long lists and extreme numbers. Bad input must be the caller's error (BAD_USER_INPUT,
// NOT_FOUND, ...): never INTERNAL_SERVER_ERROR, whatever the HTTP status; /healthz still answers.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../src/graphql/schema/schema.ts';
import { REFUSED_TEXT_MESSAGE } from '../../src/db/refused-text.ts';
import { createAccount } from '../../src/identity/accounts.ts';
import { browserClient } from '../helpers/browser-client.ts';
import { textHoldingNul } from '../helpers/db-snapshot.ts';
import { checkRequest, fuzzWorld, RUNS, show, type FuzzRequest, type FuzzWorld } from './harness.ts';
import { argTargets, internalErrors, slotSweep, variablesFor } from './schema-targets.ts';

let fw: FuzzWorld;
let admin = '';
/** The Cookie, Origin and Sec-Fetch-Site of a signed-in browser: fields for people, not keys, need them. */
let session: Record<string, string> = {};
/** IDs, handles, UUIDs and slugs of seeded records: arguments that find something. */
const known: string[] = [];

beforeAll(async () => {
  fw = await fuzzWorld(async (w) => {
    admin = (await w.campusToken('Administrator')).token;
    // Rows for every LIKE and lookup to run against (an empty table never evaluates a pattern).
    for (const [i, tags] of ['prod db', 'prod', 'web'].entries()) {
      const check = (await w.api('POST', '/api/v3/checks/', { body: { name: `c${i}`, slug: `c${i}`, tags } })).json;
      known.push(check.uuid, `c${i}`, tags);
    }
    const seeds: Array<[string, Record<string, unknown>]> = [
      ['/groups/create', { Name: 'School' }],
      ['/courses/create', { Title: 'Algebra', Code: 'MATH' }],
      ['/terms/create', { Title: 'Fall', StartDate: '2026-01-01', EndDate: '2026-06-30' }],
      ['/locations/create', { Title: 'Room' }],
      ['/people/create', { FirstName: 'Ada', LastName: 'Lovelace', Username: 'ada' }],
      ['/blog/create', { Title: 'Post' }],
      ['/pages/create', { Title: 'About' }],
    ];
    for (const [path, fields] of seeds) {
      const data = (await w.campus('POST', path, { token: admin, fields, json: true })).json.data;
      known.push(String(data.ID), data.Handle ?? data.Username ?? String(data.ID));
    }
    const section = (await w.campus('POST', '/sections/create', { token: admin, fields: { CourseID: 2, Title: 'S' }, json: true })).json.data;
    known.push(String(section?.ID ?? 1), section?.Handle ?? 'x');
    await w.api('POST', '/api/v3/checks/', { body: { name: 'page' } });
    await createAccount(w.app.db, { username: 'fuzzer', email: 'fuzzer@example.org', password: 'a long fuzzing passphrase', level: 'Staff' });
    const browser = browserClient(w);
    const signedIn = await browser.gql('mutation { signIn(username: "fuzzer", password: "a long fuzzing passphrase") { username } }');
    if (signedIn.data?.signIn?.username !== 'fuzzer') throw new Error(`sign-in for the fuzz failed: ${JSON.stringify(signedIn.errors)}`);
    session = { Cookie: browser.cookieHeader(), Origin: w.url, 'Sec-Fetch-Site': 'same-origin' };
  });
});
afterAll(() => fw?.close());

/** Who `headers` sign in as (null: nobody). */
async function viewerName(headers: Record<string, string>): Promise<string | null> {
  const res = await fetch(`${fw.w.url}/graphql`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify({ query: '{ viewer { username } }' }) });
  return ((await res.json()) as { data?: { viewer?: { username?: string } | null } }).data?.viewer?.username ?? null;
}

const targets = argTargets(schema).filter((t) => t.operation !== 'subscription');

describe('fuzzing every GraphQL argument', () => {
  it('reaches the fields that take arguments, nested ones included', () => {
    const paths = targets.map((t) => t.path.join('.'));
    for (const path of ['groups', 'courses', 'check', 'statusPage', 'login', 'setStatusPage', 'setPersonGroups', 'createChannel', 'project.checks']) expect(paths).toContain(path);
    expect(paths.length).toBeGreaterThan(60);
  });

  // Every text argument past every bound at once: 60,000 characters (SQLite's LIKE refuses
  // patterns over 50,000 bytes), LIKE wildcards, lists of 5,000 distinct strings, and NUL.
  const sweeps: Array<[string, (slot: { list: boolean }) => unknown]> = [
    ['60,000 characters', ({ list }) => (list ? ['x'.repeat(60_000)] : 'x'.repeat(60_000))],
    ['60,000 wildcards', ({ list }) => (list ? ['%_'.repeat(30_000)] : '%_'.repeat(30_000))],
    ['5,000 items', ({ list }) => (list ? Array.from({ length: 5_000 }, (_, i) => `t${i}`) : undefined)],
    // PostgreSQL's text cannot hold NUL: a rule must refuse it (or find nothing) before a query.
    ['NUL', ({ list }) => (list ? ['c0\u0000'] : 'c0\u0000')],
  ];
  for (const [name, fill] of sweeps) {
    it(`every text argument and text list, ${name}: a client error, never INTERNAL_SERVER_ERROR`, async () => {
      const keyed = { 'X-Api-Key': fw.w.alice.api_key, Authorization: `Token ${admin}` };
      // NUL again as a signed-in person (no key: a key would take precedence over the session),
      // so the fields for people (createProject, renameSecurityKey…) are reached too.
      const callers = name === 'NUL' ? [keyed, session] : [keyed];
      for (const caller of callers) {
        for (const target of targets) {
          for (const { slot, variables } of slotSweep(target, known[0]!, fill)) {
            const headers = { 'Content-Type': 'application/json', ...caller };
            const r: FuzzRequest = { method: 'POST', path: '/graphql', headers, body: Buffer.from(JSON.stringify({ query: target.text, variables })) };
            const res = await checkRequest(fw, r);
            expect(internalErrors(res.text), `INTERNAL_SERVER_ERROR for ${target.path.join('.')}(${slot})\n  answer: ${res.text.slice(0, 300)}`).toEqual([]);
            // NUL is refused or finds nothing by a rule of ours, alike on both databases, never by PostgreSQL's refusal (the net).
            if (name === 'NUL') expect(res.text, `${target.path.join('.')}(${slot}) reached the database with NUL`).not.toContain(REFUSED_TEXT_MESSAGE);
          }
        }
      }
      if (name === 'NUL') {
        // The signed-in pass ran signed in throughout, and no rule let NUL into stored text
        // (on SQLite, which would have stored it; PostgreSQL's refusal is checked above).
        expect(await viewerName(session)).toBe('fuzzer');
        expect(textHoldingNul(fw.w.databaseUrl)).toEqual([]);
      }
    }, 120_000);
  }

  // One property per field, so every field gets its share of runs (about 1,000 requests in all).
  for (const target of targets) {
    it(`${target.path.join('.')}: long and odd strings, long lists, extreme numbers: no INTERNAL_SERVER_ERROR, no 5xx`, async () => {
      const request = fc.tuple(variablesFor(target, fc.constantFrom(...known)), fc.constantFrom('both', 'both', 'both', 'key', 'none'));
      await fc.assert(
        fc.asyncProperty(request, async ([variables, who]) => {
          const headers: Record<string, string> = { 'Content-Type': 'application/json' };
          if (who !== 'none') headers['X-Api-Key'] = fw.w.alice.api_key;
          if (who === 'both') headers.Authorization = `Token ${admin}`;
          const r: FuzzRequest = { method: 'POST', path: '/graphql', headers, body: Buffer.from(JSON.stringify({ query: target.text, variables })) };
          const res = await checkRequest(fw, r);
          expect(internalErrors(res.text), `INTERNAL_SERVER_ERROR for ${target.path.join('.')}\n  ${show(r)}\n  answer: ${res.text.slice(0, 300)}`).toEqual([]);
        }),
        { numRuns: Math.ceil(RUNS / 25) },
      );
    }, 120_000);
  }
});
