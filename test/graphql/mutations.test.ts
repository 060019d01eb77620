// Check and channel mutations: camelCase input reaches the domain as Healthchecks' body, and the
// stored rows are what REST would have stored.
import { beforeAll, describe, expect, it } from 'vitest';
import { T0 } from '../helpers/world.ts';
import { useWorld } from '../helpers/fixtures.ts';
import { inProcess, type Query } from './in-process.ts';
import { toSpecBody } from '../../src/graphql/schema/monitoring/check.ts';

const w = useWorld();
let q: Query;
beforeAll(async () => {
  q = inProcess(w.app.services, w.app.log, w.alice.api_key);
});

const row = (code: string) => w.app.db.check.findUnique({ where: { code }, include: { channels: { include: { channel: true } } } });
const CREATE = 'mutation($i: CheckInput!) { createCheck(input: $i) { created check { uuid name slug tags tagsString desc kind timeout grace schedule tz manualResume methods startKw successKw failureKw filterSubject filterBody filterHttpBody filterDefaultFail channels { name } status } } }';

describe('createCheck', () => {
  it('maps every camelCase field to the stored check', async () => {
    const pager = await w.channel(w.alice, { name: 'pager' });
    const input = {
      name: 'Backups', slug: 'backups', tags: 'prod db', desc: 'nightly dump', schedule: '30 2 * * *', tz: 'Europe/Riga', grace: 600,
      manualResume: true, methods: 'POST', startKw: 'begin', successKw: 'ok', failureKw: 'err',
      filterSubject: true, filterBody: true, filterHttpBody: true, filterDefaultFail: true, channels: 'pager',
    };
    const r = await q(CREATE, { i: input });
    expect(r.errors).toBeUndefined();
    const { created, check } = r.data.createCheck;
    expect(created).toBe(true);
    expect(check).toEqual({
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'Backups', slug: 'backups', tags: ['prod', 'db'], tagsString: 'prod db', desc: 'nightly dump',
      kind: 'CRON', timeout: null, grace: 600, schedule: '30 2 * * *', tz: 'Europe/Riga', manualResume: true, methods: 'POST',
      startKw: 'begin', successKw: 'ok', failureKw: 'err', filterSubject: true, filterBody: true, filterHttpBody: true, filterDefaultFail: true,
      channels: [{ name: 'pager' }], status: 'NEW',
    });
    expect(await row(check.uuid)).toMatchObject({
      projectId: w.alice.id, name: 'Backups', slug: 'backups', tags: 'prod db', desc: 'nightly dump', kind: 'cron', schedule: '30 2 * * *',
      tz: 'Europe/Riga', grace: 600, manualResume: true, methods: 'POST', startKw: 'begin', successKw: 'ok', failureKw: 'err',
      filterSubject: true, filterBody: true, filterHttpBody: true, filterDefaultFail: true, status: 'new', createdAt: T0,
      channels: [{ channel: { code: pager.code } }],
    });
  });

  it('keeps the client\'s slug (API v3): no slug is derived from the name', async () => {
    const r = await q(CREATE, { i: { name: 'Derive Me Not' } });
    expect(r.data.createCheck.check.slug).toBe('');
  });

  it('upserts on `unique`: updates the matching check, reports created: false, adds no row', async () => {
    const first = (await q(CREATE, { i: { name: 'upsert-me', timeout: 600, unique: ['NAME'] } })).data.createCheck;
    const count = await w.app.db.check.count();
    const second = (await q(CREATE, { i: { name: 'upsert-me', timeout: 900, unique: ['NAME'] } })).data.createCheck;
    expect(first.created).toBe(true);
    expect(second).toMatchObject({ created: false, check: { uuid: first.check.uuid, timeout: 900 } });
    expect(await w.app.db.check.count()).toBe(count);
    expect((await row(first.check.uuid))!.timeout).toBe(900);
  });

  it('reports the domain\'s validation message exactly, as BAD_USER_INPUT, and stores nothing', async () => {
    const count = await w.app.db.check.count();
    for (const [input, message] of [
      [{ timeout: 10 }, 'json validation error: timeout is too small'],
      [{ grace: 40000000 }, 'json validation error: grace is too large'],
      [{ schedule: 'every day' }, 'json validation error: schedule is not a valid cron or OnCalendar expression'],
      [{ slug: 'Not A Slug' }, 'json validation error: slug does not match pattern'],
      [{ name: 'x'.repeat(101) }, 'json validation error: name is too long'],
    ] as const) {
      const r = await q(CREATE, { i: input });
      expect(r.errors, JSON.stringify(input)).toEqual([expect.objectContaining({ message, extensions: { code: 'BAD_USER_INPUT' } })]);
    }
    expect(await w.app.db.check.count()).toBe(count);
  });

  it('leaves GraphQL type errors to GraphQL (not masked, not a domain message)', async () => {
    const r = await q(CREATE, { i: { timeout: 'soon' } });
    expect(r.errors![0]!.message).toMatch(/Int cannot represent/);
  });
});

describe('updateCheck, pauseCheck, resumeCheck, deleteCheck', () => {
  let code: string;
  beforeAll(async () => {
    code = (await q(CREATE, { i: { name: 'lifecycle', tags: 'a', timeout: 60, grace: 60 } })).data.createCheck.check.uuid;
  });

  it('updates only the given fields; null means "not given"', async () => {
    const r = await q('mutation($id: ID!) { updateCheck(id: $id, input: { desc: "changed", tags: null }) { name desc tags } }', { id: code });
    expect(r.data.updateCheck).toEqual({ name: 'lifecycle', desc: 'changed', tags: ['a'] });
    expect(await row(code)).toMatchObject({ name: 'lifecycle', desc: 'changed', tags: 'a', timeout: 60 });
  });

  it('switches a check to cron and back', async () => {
    await q('mutation($id: ID!) { updateCheck(id: $id, input: { schedule: "0 * * * *" }) { kind } }', { id: code });
    expect(await row(code)).toMatchObject({ kind: 'cron', schedule: '0 * * * *' });
    const back = await q('mutation($id: ID!) { updateCheck(id: $id, input: { timeout: 120 }) { kind timeout schedule } }', { id: code });
    expect(back.data.updateCheck).toEqual({ kind: 'SIMPLE', timeout: 120, schedule: null });
  });

  it('pauses and resumes, recording flips, and refuses to resume a running check', async () => {
    await w.ping(`/ping/${code}`);
    const notPaused = await q('mutation($id: ID!) { resumeCheck(id: $id) { status } }', { id: code });
    expect(notPaused.errors).toEqual([expect.objectContaining({ message: 'check is not paused', extensions: { code: 'CONFLICT' } })]);
    expect((await q('mutation($id: ID!) { pauseCheck(id: $id) { status } }', { id: code })).data.pauseCheck.status).toBe('PAUSED');
    expect((await row(code))!.status).toBe('paused');
    expect((await q('mutation($id: ID!) { resumeCheck(id: $id) { status lastPing } }', { id: code })).data.resumeCheck).toEqual({ status: 'NEW', lastPing: null });
    expect((await row(code))!.status).toBe('new');
    const flips = await w.app.db.flip.findMany({ where: { check: { code } }, orderBy: { id: 'asc' } });
    expect(flips.map((f) => [f.oldStatus, f.newStatus])).toEqual([['new', 'up'], ['up', 'paused'], ['paused', 'new']]);
  });

  it('deletes, returning the check as it was', async () => {
    const r = await q('mutation($id: ID!) { deleteCheck(id: $id) { uuid name } }', { id: code });
    expect(r.data.deleteCheck).toEqual({ uuid: code, name: 'lifecycle' });
    expect(await row(code)).toBeNull();
    expect((await q('mutation($id: ID!) { deleteCheck(id: $id) { uuid } }', { id: code })).errors![0]!.extensions!.code).toBe('NOT_FOUND');
  });
});

describe('createChannel', () => {
  it('stores the channel in the key\'s project with the lower-case kind', async () => {
    const r = await q('mutation { createChannel(kind: SMS, value: "+15551234567", name: "on call") { uuid kind name } }');
    expect(r.data.createChannel).toMatchObject({ kind: 'SMS', name: 'on call' });
    expect(await w.app.db.channel.findUnique({ where: { code: r.data.createChannel.uuid } })).toMatchObject({ projectId: w.alice.id, kind: 'sms', value: '+15551234567' });
  });
});

describe('toSpecBody', () => {
  it('turns camelCase input into Healthchecks\' snake_case body, dropping nulls', () => {
    expect(toSpecBody({ manualResume: true, filterHttpBody: false, startKw: 'go', tags: null, unique: ['name'] })).toEqual({
      manual_resume: true, filter_http_body: false, start_kw: 'go', unique: ['name'],
    });
  });
});
