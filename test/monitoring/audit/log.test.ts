// recordAudit and listAudit themselves: an entry written in a transaction that rolls back is
// gone with it; pages are newest first, cut by id; only owners and managers read the log.
import { expect, it } from 'vitest';
import { useWorld } from '../../helpers/fixtures.ts';
import { createProject } from '../../../src/monitoring/projects/service.ts';
import { AUDIT_PAGE_MAX, listAudit, listAuditFor, recordAudit } from '../../../src/monitoring/audit/service.ts';
import { CLI_ACTOR, READ_WRITE_KEY_ACTOR } from '../../../src/identity/roles.ts';

const w = useWorld();
const T = (minute: number) => new Date(Date.UTC(2026, 3, 1, 9, minute));

it('leaves no entry when the transaction it was written in rolls back', async () => {
  const p = await createProject(w.app.db, { name: 'Rollback' });
  await expect(
    w.app.db.$transaction(async (tx) => {
      await recordAudit(tx, CLI_ACTOR, p.id, { action: 'project.renamed', targetKind: 'project', targetId: p.id, targetName: 'New' }, T(0));
      throw new Error('the change failed');
    }),
  ).rejects.toThrow('the change failed');
  expect(await w.app.db.auditEntry.count({ where: { projectId: p.id } })).toBe(0);
});

it('pages newest first by id cursor', async () => {
  const p = await createProject(w.app.db, { name: 'Pages' });
  for (let i = 0; i < 5; i++) {
    await recordAudit(w.app.db, READ_WRITE_KEY_ACTOR, p.id, { action: 'check.created', targetKind: 'check', targetId: `c${i}`, targetName: `check ${i}` }, T(i));
  }
  const one = await listAudit(w.app.db, p.id, { first: 2 });
  expect(one.entries.map((e) => e.targetId)).toEqual(['c4', 'c3']);
  expect(one).toMatchObject({ hasNextPage: true, endCursor: one.entries[1]!.id });
  const two = await listAudit(w.app.db, p.id, { first: 2, after: one.endCursor });
  expect(two.entries.map((e) => e.targetId)).toEqual(['c2', 'c1']);
  const three = await listAudit(w.app.db, p.id, { first: 2, after: two.endCursor });
  expect(three.entries.map((e) => e.targetId)).toEqual(['c0']);
  expect(three).toMatchObject({ hasNextPage: false, endCursor: null });
  expect(three.entries[0]).toMatchObject({ actorLabel: 'API key (read-write)', action: 'check.created', targetName: 'check 0', at: T(0) });
  expect(three.entries[0]).not.toHaveProperty('projectId');
});

it('bounds the page and refuses a bad cursor', async () => {
  const p = await createProject(w.app.db, { name: 'Bounds' });
  await expect(listAudit(w.app.db, p.id, { first: AUDIT_PAGE_MAX + 1 })).rejects.toThrow('first must be between 0 and 200');
  await expect(listAudit(w.app.db, p.id, { first: -1 })).rejects.toThrow('first must be between 0 and 200');
  await expect(listAudit(w.app.db, p.id, { first: 1, after: 1.5 })).rejects.toThrow('unknown cursor');
  expect(await listAudit(w.app.db, p.id, { first: AUDIT_PAGE_MAX })).toEqual({ entries: [], hasNextPage: false, endCursor: null });
});

it('keeps the detail small and free of secret-looking keys', async () => {
  const p = await createProject(w.app.db, { name: 'Detail' });
  await recordAudit(w.app.db, CLI_ACTOR, p.id, { action: 'channel.updated', targetKind: 'channel', targetId: 'x', detail: { fields: ['value'], value: 'https://x/token', apiKey: 'hcw_x', token: 't' } }, T(0));
  await recordAudit(w.app.db, CLI_ACTOR, p.id, { action: 'channel.updated', targetKind: 'channel', targetId: 'y', detail: { fields: Array.from({ length: 500 }, (_, i) => `field${i}`) } }, T(1));
  const { entries } = await listAudit(w.app.db, p.id, { first: 10 });
  expect(entries.map((e) => e.detail)).toEqual([{ truncated: true }, { fields: ['value'] }]);
});

it('is read by owners and managers only', async () => {
  const p = await createProject(w.app.db, { name: 'Readers' });
  await recordAudit(w.app.db, CLI_ACTOR, p.id, { action: 'project.created', targetKind: 'project', targetId: p.id, targetName: 'Readers' }, T(0));
  const access = (role: 'owner' | 'manager' | 'regular' | 'readonly') => ({ projectId: p.id, readOnly: role === 'readonly', role, actor: CLI_ACTOR });
  for (const role of ['owner', 'manager'] as const) expect((await listAuditFor(w.app.deps, access(role), { first: 10 })).entries).toHaveLength(1);
  for (const role of ['regular', 'readonly'] as const) await expect(listAuditFor(w.app.deps, access(role), { first: 10 })).rejects.toThrow('only owners and managers');
});
