// The audit log of channel and key changes: the management API's functions name the caller's
// key, the operator's (CLI) functions name the CLI; entries carry names, never values or keys.
import { describe, expect, it } from 'vitest';
import { useWorld } from '../../helpers/fixtures.ts';
import { authenticate, createProject, revokeKey, rotateKey, type CreatedProject } from '../../../src/monitoring/projects/service.ts';
import {
  createChannel,
  createChannelFor,
  deleteChannel,
  deleteChannelFor,
  updateChannel,
  updateChannelFor,
} from '../../../src/monitoring/integrations/service.ts';
import { listAudit, type AuditRecord } from '../../../src/monitoring/audit/service.ts';
import { CLI_ACTOR } from '../../../src/identity/roles.ts';

const w = useWorld();

const project = (name: string) => createProject(w.app.db, { name });
const log = async (p: CreatedProject): Promise<AuditRecord[]> => (await listAudit(w.app.db, p.id, { first: 200 })).entries;
const rawLog = async (p: CreatedProject) => JSON.stringify(await w.app.db.auditEntry.findMany({ where: { projectId: p.id } }));

const HOOK = 'https://hooks.example.org/T0/secret-token-123';

describe('channels', () => {
  it('records create, update and delete by a read-write key at the clock time, without the value', async () => {
    const p = await project('Channels');
    const access = await authenticate(w.app.db, p.api_key, 'write');
    w.clock.set('2026-03-01T10:00:00Z');
    const channel = await createChannelFor(w.app.deps, access, { kind: 'webhook', value: HOOK, name: 'Hook' });
    w.clock.set('2026-03-01T11:00:00Z');
    await updateChannelFor(w.app.deps, access, channel.code, { value: `${HOOK}-2`, name: 'Hook 2', notifyUp: true });
    w.clock.set('2026-03-01T12:00:00Z');
    await deleteChannelFor(w.app.deps, access, channel.code);
    expect((await log(p)).map((e) => [e.actorLabel, e.action, e.targetKind, e.targetId, e.targetName, e.at.toISOString(), e.detail])).toEqual([
      ['API key (read-write)', 'channel.deleted', 'channel', channel.code, 'Hook 2', '2026-03-01T12:00:00.000Z', null],
      // notifyUp was sent but already true: not a change.
      ['API key (read-write)', 'channel.updated', 'channel', channel.code, 'Hook 2', '2026-03-01T11:00:00.000Z', { fields: ['value', 'name'] }],
      ['API key (read-write)', 'channel.created', 'channel', channel.code, 'Hook', '2026-03-01T10:00:00.000Z', { kind: 'webhook' }],
    ]);
    expect(await rawLog(p)).not.toContain('secret-token');
  });

  it('records nothing for an invalid create or update, an update that changes nothing, or a missing channel', async () => {
    const p = await project('Refused channels');
    const access = await authenticate(w.app.db, p.api_key, 'write');
    await expect(createChannelFor(w.app.deps, access, { kind: 'email', value: 'not-an-address' })).rejects.toThrow();
    const channel = await createChannelFor(w.app.deps, access, { kind: 'email', value: 'ops@example.org', name: 'Ops' });
    await expect(updateChannelFor(w.app.deps, access, channel.code, { value: 'not-an-address' })).rejects.toThrow();
    await updateChannelFor(w.app.deps, access, channel.code, { name: 'Ops' });
    await expect(deleteChannelFor(w.app.deps, access, 'no-such-channel')).rejects.toThrow('channel not found');
    // Another project's key cannot delete it, and its attempt is in no log.
    const other = await project('Other');
    await expect(deleteChannelFor(w.app.deps, await authenticate(w.app.db, other.api_key, 'write'), channel.code)).rejects.toThrow('channel not found');
    expect((await log(p)).map((e) => e.action)).toEqual(['channel.created']);
    expect(await log(other)).toEqual([]);
  });

  it('names the CLI for the operator functions', async () => {
    const p = await project('Operator');
    const channel = await createChannel(w.app.db, p.id, { kind: 'email', value: 'ops@example.org' });
    await updateChannel(w.app.db, null, channel.code, { disabled: true });
    await deleteChannel(w.app.db, channel.code);
    expect((await log(p)).map((e) => [e.actorLabel, e.actorPersonId, e.action, e.detail])).toEqual([
      ['CLI', null, 'channel.deleted', null],
      ['CLI', null, 'channel.updated', { fields: ['disabled'] }],
      ['CLI', null, 'channel.created', { kind: 'email' }],
    ]);
  });
});

describe('keys', () => {
  it('records key.created and key.revoked under the key’s name, never the key', async () => {
    const p = await project('Keys');
    const at = new Date('2026-03-02T08:00:00Z');
    const person = { personId: 7, label: 'alice' };
    const rw = await rotateKey(w.app.db, p.id, 'api_key', person, at);
    const ping = await rotateKey(w.app.db, p.id, 'ping_key');
    await revokeKey(w.app.db, p.id, 'api_key_readonly', person, at);
    // Revoking a key the project no longer has changes nothing and records nothing.
    await revokeKey(w.app.db, p.id, 'api_key_readonly', person, at);
    expect((await log(p)).map((e) => [e.actorLabel, e.actorPersonId, e.action, e.targetKind, e.targetId, e.targetName])).toEqual([
      ['alice', 7, 'key.revoked', 'key', 'api_key_readonly', 'API key (read-only)'],
      [CLI_ACTOR.label, null, 'key.created', 'key', 'ping_key', 'Ping key'],
      ['alice', 7, 'key.created', 'key', 'api_key', 'API key (read-write)'],
    ]);
    const raw = await rawLog(p);
    for (const key of [rw, ping, p.api_key, p.api_key_readonly]) expect(raw).not.toContain(key);
  });

  it('records nothing for a missing project', async () => {
    const before = await w.app.db.auditEntry.count();
    await expect(rotateKey(w.app.db, 'missing', 'api_key')).rejects.toThrow('project not found');
    await expect(revokeKey(w.app.db, 'missing', 'api_key')).rejects.toThrow('project not found');
    expect(await w.app.db.auditEntry.count()).toBe(before);
  });
});
