// Channel.lastError: the error of the channel's last delivery attempt (Healthchecks'
// Channel.last_error), '' after a success or before any; alerts, their retries and tests all
// count. Deliveries go to a real local receiver; a list of channels reads its errors in a
// constant number of statements.
import { beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { useHttpReceiver, useWorld } from '../../../helpers/fixtures.ts';
import { inProcess, type Query } from '../../in-process.ts';
import { createProject, type CreatedProject } from '../../../../src/monitoring/projects/service.ts';

const receiver = useHttpReceiver({ reset: true });
const w = useWorld();
let q: Query;
beforeAll(() => {
  q = inProcess(w.app.services, w.app.log, null);
});

const TEST = 'mutation($id: ID!) { testChannel(id: $id) { ok error } }';

/** A project of its own with a webhook to the receiver and an e-mail channel nobody tests. */
async function project() {
  const p = await createProject(w.app.db, { name: 'Last errors' });
  const hook = await w.channel(p, { kind: 'webhook', value: `${receiver.url}/hook`, name: 'hook' });
  const mail = await w.channel(p, { name: 'mail' });
  return { p, hook, mail };
}

async function lastErrors(p: CreatedProject): Promise<Record<string, string>> {
  const r = await q('{ project { channels { name lastError } } }', {}, p.api_key);
  expect(r.errors).toBeUndefined();
  return Object.fromEntries(r.data.project.channels.map((c: { name: string; lastError: string }) => [c.name, c.lastError]));
}

describe('Channel.lastError', () => {
  it('is empty before any delivery, the error after a failed one, and empty again after a success', async () => {
    const { p, hook } = await project();
    expect(await lastErrors(p)).toEqual({ hook: '', mail: '' });

    receiver.respond(500);
    const failed = await q(TEST, { id: hook.code }, p.api_key);
    expect(failed.data.testChannel).toEqual({ ok: false, error: 'Received status code 500' });
    expect(await lastErrors(p)).toEqual({ hook: 'Received status code 500', mail: '' });

    w.clock.advance(60_000);
    receiver.respond(200);
    expect((await q(TEST, { id: hook.code }, p.api_key)).data.testChannel.ok).toBe(true);
    expect(await lastErrors(p)).toEqual({ hook: '', mail: '' });
    expect(receiver.requests).toHaveLength(2);
  });

  it('counts an alert’s failed attempt that will be retried', async () => {
    const { p, hook } = await project();
    const check = await w.api('POST', '/api/v3/checks/', { key: p.api_key, body: { name: 'nightly', channels: 'hook' } });
    await w.ping(`/ping/${check.json.uuid}`);
    await w.ping(`/ping/${check.json.uuid}/fail`);
    receiver.respond(503);
    await w.app.notifier.tick();
    const r = await q(`query($id: ID!) { check(id: $id) { notifications { state attempts } } }`, { id: check.json.uuid }, p.api_key);
    expect(r.data.check.notifications).toEqual([{ state: 'PENDING', attempts: 1 }]);
    expect(await lastErrors(p)).toEqual({ hook: 'Received status code 503', mail: '' });
    // The node of the channel answers the same.
    const node = await q('query($id: ID!) { channel: node(id: $id) { ... on Channel { lastError } } }', { id: Buffer.from(`Channel:${(await w.app.db.channel.findUniqueOrThrow({ where: { code: hook.code } })).id}`).toString('base64') }, p.api_key);
    expect(node.data.channel).toEqual({ lastError: 'Received status code 503' });
  });

  it('follows the attempt that ended last, not the notification queued last (a retry of an older one)', async () => {
    const { p, hook } = await project();
    const channelId = (await w.app.db.channel.findUniqueOrThrow({ where: { code: hook.code } })).id;
    const row = (id: string, lastAttemptAt: Date | null, state: string, lastError: string) => ({
      code: randomUUID(), channelId, reason: 'test', status: 'down', eventAt: new Date(id), createdAt: new Date(id), nextAttemptAt: new Date(id), state, lastError, lastAttemptAt, attempts: lastAttemptAt ? 1 : 0,
    });
    // Queued first, retried last (failed); queued second, sent in between; queued last, not tried yet.
    await w.app.db.notification.create({ data: row('2026-01-05T10:00:00Z', new Date('2026-01-05T10:30:00Z'), 'pending', 'Connection refused') });
    await w.app.db.notification.create({ data: row('2026-01-05T10:01:00Z', new Date('2026-01-05T10:02:00Z'), 'sent', '') });
    await w.app.db.notification.create({ data: row('2026-01-05T10:40:00Z', null, 'pending', '') });
    expect(await lastErrors(p)).toEqual({ hook: 'Connection refused', mail: '' });
  });

  it('reads a list of channels’ errors in the same statements for 2 channels as for 8', async () => {
    const run = async (extra: number) => {
      const { p, hook } = await project();
      for (let i = 0; i < extra; i++) await w.channel(p, { kind: 'webhook', value: `${receiver.url}/x${i}`, name: `x${i}` });
      receiver.respond(500);
      await q(TEST, { id: hook.code }, p.api_key);
      const seen: string[] = [];
      const stop = w.app.onStatement((sql) => seen.push(sql));
      const errors = await lastErrors(p);
      stop();
      expect(Object.keys(errors)).toHaveLength(2 + extra);
      expect(errors.hook).toBe('Received status code 500');
      return seen.length;
    };
    const small = await run(0);
    expect(await run(6)).toBe(small);
  });
});
