// The audit log of check changes made through the Healthchecks REST API with a read-write key:
// each change leaves one entry naming the key, the check and the injected clock's time; a
// refused or no-op request leaves none.
import { describe, expect, it } from 'vitest';
import { useWorld } from '../../helpers/fixtures.ts';
import { createProject, type CreatedProject } from '../../../src/monitoring/projects/service.ts';
import { listAudit, type AuditRecord } from '../../../src/monitoring/audit/service.ts';

const w = useWorld();

/** A project of its own per test, so its log holds only what the test did. */
const project = (name: string) => createProject(w.app.db, { name });

async function log(p: CreatedProject): Promise<AuditRecord[]> {
  return (await listAudit(w.app.db, p.id, { first: 200 })).entries;
}

/** Makes every audit insert fail (as a full disk would) until the returned function is called. */
async function failAuditInserts(): Promise<() => Promise<void>> {
  const db = w.app.db;
  if (w.databaseUrl.startsWith('postgres')) {
    await db.$executeRawUnsafe(`CREATE FUNCTION fault_audit() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'injected fault'; END $$ LANGUAGE plpgsql`);
    await db.$executeRawUnsafe('CREATE TRIGGER fault_audit BEFORE INSERT ON "AuditEntry" FOR EACH ROW EXECUTE FUNCTION fault_audit()');
    return async () => {
      await db.$executeRawUnsafe('DROP TRIGGER fault_audit ON "AuditEntry"');
      await db.$executeRawUnsafe('DROP FUNCTION fault_audit()');
    };
  }
  await db.$executeRawUnsafe(`CREATE TRIGGER fault_audit BEFORE INSERT ON "AuditEntry" BEGIN SELECT RAISE(ABORT, 'injected fault'); END`);
  return async () => void (await db.$executeRawUnsafe('DROP TRIGGER fault_audit'));
}

const KEY = { actorLabel: 'API key (read-write)', actorPersonId: null };

describe('check changes through the REST API', () => {
  it('records check.created with the key, the check and the clock time', async () => {
    const p = await project('Created');
    w.clock.set('2026-02-01T08:00:00Z');
    const res = await w.api('POST', '/api/v2/checks/', { key: p.api_key, body: { name: 'Nightly Backup' } });
    expect(res.status).toBe(201);
    expect(await log(p)).toEqual([
      expect.objectContaining({ ...KEY, action: 'check.created', targetKind: 'check', targetId: res.json.uuid, targetName: 'Nightly Backup', at: new Date('2026-02-01T08:00:00Z'), detail: null }),
    ]);
  });

  it('records check.updated with the names of the changed fields, not their values', async () => {
    const p = await project('Updated');
    const channel = await w.channel(p, { name: 'ops' });
    const created = await w.api('POST', '/api/v2/checks/', { key: p.api_key, body: { name: 'web' } });
    w.clock.set('2026-02-02T09:30:00Z');
    const res = await w.api('POST', `/api/v2/checks/${created.json.uuid}`, {
      key: p.api_key,
      body: { name: 'web-prod', desc: 'private runbook text', grace: 3600, channels: channel.code },
    });
    expect(res.status).toBe(200);
    const [entry] = await log(p);
    // grace was sent but kept its value: not a change.
    expect(entry).toMatchObject({ ...KEY, action: 'check.updated', targetId: created.json.uuid, targetName: 'web-prod', at: new Date('2026-02-02T09:30:00Z'), detail: { fields: ['name', 'slug', 'desc', 'channels'] } });
    const row = await w.app.db.auditEntry.findUniqueOrThrow({ where: { id: entry!.id } });
    expect(row.detail).not.toContain('private runbook text');
  });

  it('records an update that changes nothing as nothing', async () => {
    const p = await project('Same');
    const created = await w.api('POST', '/api/v2/checks/', { key: p.api_key, body: { name: 'same', timeout: 120 } });
    const res = await w.api('POST', `/api/v2/checks/${created.json.uuid}`, { key: p.api_key, body: { name: 'same', timeout: 120 } });
    expect(res.status).toBe(200);
    expect((await log(p)).map((e) => e.action)).toEqual(['check.created']);
  });

  it('records an upsert that matched (`unique`) as check.updated, and a repeated one as nothing', async () => {
    const p = await project('Upsert');
    const body = { name: 'deploy', tags: 'a', unique: ['name'] };
    expect((await w.api('POST', '/api/v2/checks/', { key: p.api_key, body })).status).toBe(201);
    expect((await w.api('POST', '/api/v2/checks/', { key: p.api_key, body: { ...body, tags: 'a b' } })).status).toBe(200);
    expect((await w.api('POST', '/api/v2/checks/', { key: p.api_key, body: { ...body, tags: 'a b' } })).status).toBe(200);
    const entries = await log(p);
    expect(entries.map((e) => [e.action, e.detail])).toEqual([
      ['check.updated', { fields: ['tags'] }],
      ['check.created', null],
    ]);
  });

  it('records a pause once however often it is sent, and a resume once', async () => {
    const p = await project('Pause');
    const created = await w.api('POST', '/api/v2/checks/', { key: p.api_key, body: { name: 'cron' } });
    const uuid = created.json.uuid as string;
    w.clock.set('2026-02-03T00:00:00Z');
    expect((await w.api('POST', `/api/v2/checks/${uuid}/pause`, { key: p.api_key })).status).toBe(200);
    w.clock.set('2026-02-03T00:05:00Z');
    expect((await w.api('POST', `/api/v2/checks/${uuid}/pause`, { key: p.api_key })).status).toBe(200);
    w.clock.set('2026-02-03T01:00:00Z');
    expect((await w.api('POST', `/api/v2/checks/${uuid}/resume`, { key: p.api_key })).status).toBe(200);
    // Resuming a check that is not paused is refused (409) and records nothing.
    expect((await w.api('POST', `/api/v2/checks/${uuid}/resume`, { key: p.api_key })).status).toBe(409);
    const entries = await log(p);
    expect(entries.map((e) => [e.action, e.targetName, e.at.toISOString()])).toEqual([
      ['check.resumed', 'cron', '2026-02-03T01:00:00.000Z'],
      ['check.paused', 'cron', '2026-02-03T00:00:00.000Z'],
      ['check.created', 'cron', expect.any(String)],
    ]);
  });

  it('records check.deleted with the name the check had; the entry outlives the check', async () => {
    const p = await project('Delete');
    const created = await w.api('POST', '/api/v2/checks/', { key: p.api_key, body: { name: 'old job' } });
    w.clock.set('2026-02-04T12:00:00Z');
    expect((await w.api('DELETE', `/api/v2/checks/${created.json.uuid}`, { key: p.api_key })).status).toBe(200);
    expect(await w.app.db.check.count({ where: { code: created.json.uuid } })).toBe(0);
    const [entry] = await log(p);
    expect(entry).toMatchObject({ ...KEY, action: 'check.deleted', targetId: created.json.uuid, targetName: 'old job', at: new Date('2026-02-04T12:00:00Z') });
    // Deleting it again is 404 and records nothing.
    expect((await w.api('DELETE', `/api/v2/checks/${created.json.uuid}`, { key: p.api_key })).status).toBe(404);
    expect((await log(p)).map((e) => e.action)).toEqual(['check.deleted', 'check.created']);
  });

  it('records nothing for a refused write: validation errors, an unknown channel, a read-only key', async () => {
    const p = await project('Refused');
    const created = await w.api('POST', '/api/v2/checks/', { key: p.api_key, body: { name: 'keep' } });
    const uuid = created.json.uuid as string;
    expect((await w.api('POST', '/api/v2/checks/', { key: p.api_key, body: { timeout: 59 } })).status).toBe(400);
    expect((await w.api('POST', `/api/v2/checks/${uuid}`, { key: p.api_key, body: { name: 'renamed', grace: 'x' } })).status).toBe(400);
    expect((await w.api('POST', `/api/v2/checks/${uuid}`, { key: p.api_key, body: { name: 'renamed', channels: 'no-such-channel' } })).status).toBe(400);
    expect((await w.api('POST', `/api/v2/checks/${uuid}/pause`, { key: p.api_key_readonly })).status).toBe(401);
    expect((await w.api('DELETE', `/api/v2/checks/${uuid}`, { key: p.api_key_readonly })).status).toBe(401);
    expect((await log(p)).map((e) => e.action)).toEqual(['check.created']);
    expect(await w.app.db.check.findUniqueOrThrow({ where: { code: uuid } })).toMatchObject({ name: 'keep', status: 'new' });
  });

  it('does not change a check whose entry cannot be written: the change and its entry commit together', async () => {
    const p = await project('Fault');
    const created = await w.api('POST', '/api/v2/checks/', { key: p.api_key, body: { name: 'guarded' } });
    const uuid = created.json.uuid as string;
    const restore = await failAuditInserts();
    try {
      expect((await w.api('POST', '/api/v2/checks/', { key: p.api_key, body: { name: 'never' } })).status).toBe(500);
      expect((await w.api('POST', `/api/v2/checks/${uuid}`, { key: p.api_key, body: { name: 'renamed' } })).status).toBe(500);
      expect((await w.api('POST', `/api/v2/checks/${uuid}/pause`, { key: p.api_key })).status).toBe(500);
      expect((await w.api('DELETE', `/api/v2/checks/${uuid}`, { key: p.api_key })).status).toBe(500);
    } finally {
      await restore();
    }
    expect(await w.app.db.check.findMany({ where: { projectId: p.id }, select: { code: true, name: true, status: true } })).toEqual([{ code: uuid, name: 'guarded', status: 'new' }]);
    expect(await w.app.db.flip.count({ where: { check: { code: uuid } } })).toBe(0);
    expect((await log(p)).map((e) => e.action)).toEqual(['check.created']);
  });

  it('writes to the acting project only', async () => {
    const p = await project('Mine');
    const other = await project('Other');
    await w.api('POST', '/api/v2/checks/', { key: p.api_key, body: { name: 'mine' } });
    expect(await log(other)).toEqual([]);
  });
});
