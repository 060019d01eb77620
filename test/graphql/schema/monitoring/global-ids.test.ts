// The global `id` a query returns works wherever an argument names that object: check(id:),
// the check and channel mutations, link/unlink, the check subscriptions' checkId, project(id:);
// the UUIDs keep working. A global ID of another type, of a row that does not exist or of
// another project's object is answered exactly as a missing UUID is, and tells nothing.
import { beforeAll, describe, expect, it } from 'vitest';
import { parse, subscribe } from 'graphql';
import { useHttpReceiver, useWorld } from '../../../helpers/fixtures.ts';
import { inProcess, type Query } from '../../in-process.ts';
import type { GqlResult } from '../../../helpers/gql.ts';
import { schema } from '../../../../src/graphql/schema/schema.ts';
import { createContext } from '../../../../src/graphql/server/context.ts';
import { browserClient } from '../../../helpers/browser-client.ts';
import { createAccount } from '../../../../src/identity/accounts.ts';
import { addMember } from '../../../../src/identity/memberships.ts';

const receiver = useHttpReceiver({ reset: true });
const w = useWorld();
let q: Query;
beforeAll(() => {
  q = inProcess(w.app.services, w.app.log, w.alice.api_key);
});

const b64 = (s: string) => Buffer.from(s).toString('base64');

/** A new check of `key`'s project: its UUID and the global id a query returns for it. */
async function newCheck(name: string, key = w.alice.api_key) {
  const created = await w.api('POST', '/api/v3/checks/', { key, body: { name, timeout: 3600 } });
  expect(created.status).toBe(201);
  const r = await q(`query($id: ID!) { check(id: $id) { id } }`, { id: created.json.uuid }, key);
  return { uuid: created.json.uuid as string, id: r.data.check.id as string };
}

/** A new webhook channel of `key`'s project (to the receiver): its UUID and its global id. */
async function newChannel(name: string, key = w.alice.api_key) {
  const r = await q(`mutation($v: String!, $n: String!) { createChannel(kind: WEBHOOK, value: $v, name: $n) { id uuid } }`, { v: `${receiver.url}/${name}`, n: name }, key);
  expect(r.errors).toBeUndefined();
  return r.data.createChannel as { id: string; uuid: string };
}

const stored = (uuid: string) => w.app.db.check.findUnique({ where: { code: uuid } });

/** The one error of a response as [message, code]. */
const failure = (r: GqlResult) => {
  expect(r.errors, JSON.stringify(r)).toHaveLength(1);
  return [r.errors![0]!.message, r.errors![0]!.extensions?.code];
};

describe('check arguments', () => {
  it('check(id:) takes the global id, for read-only keys too (which never see the UUID)', async () => {
    const { uuid, id } = await newCheck('by global id');
    expect((await q(`query($id: ID!) { check(id: $id) { id uuid name } }`, { id })).data.check).toEqual({ id, uuid, name: 'by global id' });
    const ro = await q(`query($id: ID!) { check(id: $id) { id uuid name } }`, { id }, w.alice.api_key_readonly);
    expect(ro.data.check).toEqual({ id, uuid: null, name: 'by global id' });
  });

  it('updateCheck, pauseCheck, resumeCheck and deleteCheck take it and change the stored check', async () => {
    const { uuid, id } = await newCheck('mutated');
    expect((await q(`mutation($id: ID!) { updateCheck(id: $id, input: { name: "renamed", grace: 120 }) { id name } }`, { id })).data.updateCheck).toEqual({ id, name: 'renamed' });
    expect(await stored(uuid)).toMatchObject({ name: 'renamed', grace: 120 });
    expect((await q(`mutation($id: ID!) { pauseCheck(id: $id) { status } }`, { id })).data.pauseCheck.status).toBe('PAUSED');
    expect((await stored(uuid))!.status).toBe('paused');
    expect((await q(`mutation($id: ID!) { resumeCheck(id: $id) { status } }`, { id })).data.resumeCheck.status).toBe('NEW');
    expect((await stored(uuid))!.status).toBe('new');
    expect((await q(`mutation($id: ID!) { deleteCheck(id: $id) { id name } }`, { id })).data.deleteCheck).toEqual({ id, name: 'renamed' });
    expect(await stored(uuid)).toBeNull();
    // The UUID still works as before.
    const other = await newCheck('by uuid');
    expect((await q(`mutation($id: ID!) { pauseCheck(id: $id) { id } }`, { id: other.uuid })).data.pauseCheck.id).toBe(other.id);
  });

  it('answers another type’s id, a missing row’s, a malformed one and another project’s check as a missing UUID: NOT_FOUND, nothing changed, nothing told', async () => {
    const mine = await newCheck('untouched');
    const channel = await newChannel('not-a-check');
    const bobs = await newCheck('bob’s', w.bob.api_key);
    const flip = b64('Flip:1');
    const missingUuid = failure(await q(`mutation($id: ID!) { pauseCheck(id: $id) { name } }`, { id: '00000000-0000-4000-8000-000000000000' }));
    expect(missingUuid).toEqual(['not found', 'NOT_FOUND']);
    for (const id of [channel.id, flip, b64('Check:999999'), b64('Check:abc'), b64('Check:'), bobs.id]) {
      for (const op of ['pauseCheck(id: $id) { name }', 'deleteCheck(id: $id) { name }', 'updateCheck(id: $id, input: { name: "x" }) { name }']) {
        expect(failure(await q(`mutation($id: ID!) { ${op} }`, { id })), `${op} ${id}`).toEqual(missingUuid);
      }
      expect(failure(await q(`query($id: ID!) { check(id: $id) { name } }`, { id }))).toEqual(missingUuid);
    }
    expect(await stored(mine.uuid)).toMatchObject({ name: 'untouched', status: 'new' });
    expect(await stored(bobs.uuid)).toMatchObject({ name: 'bob’s', status: 'new' });
    // Without a key it is the missing key, as for a UUID: authentication comes first.
    expect(failure(await q(`query($id: ID!) { check(id: $id) { name } }`, { id: mine.id }, null))).toEqual(['missing api key', 'UNAUTHENTICATED']);
    expect(failure(await q(`query($id: ID!) { check(id: $id) { name } }`, { id: channel.id }, null))).toEqual(['missing api key', 'UNAUTHENTICATED']);
  });

  it('works for a signed-in member in the check’s project, and is not found in a project they are not in', async () => {
    const a = await createAccount(w.app.db, { username: 'globalist', email: 'globalist@example.org', password: 'correct horse battery', level: 'User' });
    await addMember({ db: w.app.db, events: w.app.deps.events, clock: w.clock }, w.alice.id, a.id, 'regular');
    const browser = browserClient(w);
    await browser.gql(`mutation { signIn(username: "globalist", password: "correct horse battery") { username } }`);
    const mine = await newCheck('member’s');
    const bobs = await newCheck('not theirs', w.bob.api_key);
    expect((await browser.gql(`mutation($id: ID!) { pauseCheck(id: $id) { id status } }`, { id: mine.id })).data.pauseCheck).toEqual({ id: mine.id, status: 'PAUSED' });
    expect((await stored(mine.uuid))!.status).toBe('paused');
    const refused = await browser.gql(`mutation($id: ID!) { pauseCheck(id: $id) { id } }`, { id: bobs.id });
    expect(failure(refused)).toEqual(failure(await browser.gql(`mutation($id: ID!) { pauseCheck(id: $id) { id } }`, { id: bobs.uuid })));
    expect(failure(refused)).toEqual(['not found', 'NOT_FOUND']);
    expect((await stored(bobs.uuid))!.status).toBe('new');
  });

  it('linkCheckRecord and unlinkCheckRecord take it', async () => {
    const staff = (await w.campusToken('Staff')).token;
    expect((await w.campus('POST', '/courses/create', { token: staff, fields: { Title: 'Physics', Code: 'PHY' } })).json.success).toBe(true);
    const { uuid, id } = await newCheck('linked');
    const link = await q(`mutation($c: ID!) { linkCheckRecord(check: $c, kind: Course, handle: "PHY") { id tagsString } }`, { c: id });
    expect(link.data.linkCheckRecord).toEqual({ id, tagsString: 'campus:course/PHY' });
    expect((await stored(uuid))!.tags).toBe('campus:course/PHY');
    const unlink = await q(`mutation($c: ID!) { unlinkCheckRecord(check: $c, kind: Course, handle: "PHY") { tagsString } }`, { c: id });
    expect(unlink.data.unlinkCheckRecord.tagsString).toBe('');
    expect((await stored(uuid))!.tags).toBe('');
  });

  it('the pings subscription (and the other check subscriptions) take it as checkId', async () => {
    const { uuid, id } = await newCheck('watched');
    const pings = (await subscribe({ schema, document: parse('subscription($c: ID!) { pings(checkId: $c) { n } }'), variableValues: { c: id }, contextValue: createContext(w.app.services, w.alice.api_key) })) as AsyncGenerator<GqlResult>;
    expect(Symbol.asyncIterator in pings, JSON.stringify(pings)).toBe(true);
    await w.ping(`/ping/${uuid}`);
    expect((await pings.next()).value).toEqual({ data: { pings: { n: 1 } } });
    await pings.return(undefined);
    // Another type's id is refused at once, as a missing UUID.
    const refused = await subscribe({ schema, document: parse('subscription($c: ID) { checkChanged(checkId: $c) { change } }'), variableValues: { c: b64('Channel:1') }, contextValue: createContext(w.app.services, w.alice.api_key) });
    expect(refused).toMatchObject({ errors: [expect.objectContaining({ message: 'not found' })] });
  });
});

describe('channel arguments', () => {
  it('updateChannel, testChannel and deleteChannel take the global id', async () => {
    const { id, uuid } = await newChannel('hook');
    const updated = await q(`mutation($id: ID!) { updateChannel(id: $id, name: "renamed", notifyUp: false) { id name notifyUp } }`, { id });
    expect(updated.data.updateChannel).toEqual({ id, name: 'renamed', notifyUp: false });
    expect(await w.app.db.channel.findUnique({ where: { code: uuid } })).toMatchObject({ name: 'renamed', notifyUp: false });
    const tested = await q(`mutation($id: ID!) { testChannel(id: $id) { ok notification { channel { id } } } }`, { id });
    expect(tested.data.testChannel).toEqual({ ok: true, notification: { channel: { id } } });
    expect(receiver.requests.map((r) => r.path)).toEqual(['/hook']);
    expect((await q(`mutation($id: ID!) { deleteChannel(id: $id) }`, { id })).data.deleteChannel).toBe(id);
    expect(await w.app.db.channel.findUnique({ where: { code: uuid } })).toBeNull();
  });

  it('answers another type’s id, a missing row’s and another project’s channel as a missing UUID, naming only what was sent', async () => {
    const check = await newCheck('not-a-channel');
    const bobs = await newChannel('bobs', w.bob.api_key);
    const missingUuid = '00000000-0000-4000-8000-000000000000';
    expect(failure(await q(`mutation($id: ID!) { testChannel(id: $id) { ok } }`, { id: missingUuid }))).toEqual([`channel not found: ${missingUuid}`, 'NOT_FOUND']);
    for (const id of [check.id, b64('Channel:999999'), bobs.id]) {
      for (const op of ['testChannel(id: $id) { ok }', 'deleteChannel(id: $id)', 'updateChannel(id: $id, name: "x") { name }']) {
        expect(failure(await q(`mutation($id: ID!) { ${op} }`, { id })), `${op} ${id}`).toEqual([`channel not found: ${id}`, 'NOT_FOUND']);
      }
    }
    expect(await w.app.db.channel.findUnique({ where: { code: bobs.uuid } })).toMatchObject({ name: 'bobs' });
    expect(receiver.requests).toHaveLength(0);
  });
});

describe('project(id:)', () => {
  it('takes the project’s global id; another project’s, or another type’s, is "project not found" as a wrong UUID', async () => {
    const own = (await q('{ project { id uuid } }')).data.project as { id: string; uuid: string };
    expect((await q('query($id: ID) { project(id: $id) { uuid } }', { id: own.id })).data.project.uuid).toBe(w.alice.id);
    const bob = (await q('{ project { id } }', {}, w.bob.api_key)).data.project.id;
    const wrongUuid = failure(await q('query($id: ID) { project(id: $id) { uuid } }', { id: w.bob.id }));
    expect(wrongUuid).toEqual(['project not found', 'NOT_FOUND']);
    for (const id of [bob, (await newCheck('not-a-project')).id]) {
      expect(failure(await q('query($id: ID) { project(id: $id) { uuid } }', { id }))).toEqual(wrongUuid);
    }
  });
});
