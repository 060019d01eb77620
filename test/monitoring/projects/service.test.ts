import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDb, type Db } from '../../../src/db/client.ts';
import { migrate } from '../../../src/db/migrate.ts';
import { hashKey } from '../../../src/monitoring/projects/keys.ts';
import { authenticate, createProject, rotateKey, revokeKey } from '../../../src/monitoring/projects/service.ts';

let dir: string;
let db: Db;
beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-projects-'));
  await migrate(`file:${dir}/p.db`);
  db = createDb(`file:${dir}/p.db`);
});
afterAll(async () => {
  await db.$disconnect();
  rmSync(dir, { recursive: true, force: true });
});

it('creates 32-character keys and stores only their hashes', async () => {
  const p = await createProject(db, { name: 'Keys' });
  for (const key of [p.api_key, p.api_key_readonly, p.ping_key, p.badge_key]) expect(key).toHaveLength(32);
  expect(p.api_key).toMatch(/^hcw_/);
  expect(p.api_key_readonly).toMatch(/^hcr_/);
  const row = await db.project.findUniqueOrThrow({ where: { id: p.id } });
  expect(row.apiKeyHash).toBe(hashKey(p.api_key));
  expect(JSON.stringify(row)).not.toContain(p.api_key);
  expect(JSON.stringify(row)).not.toContain(p.ping_key);
});

it('authenticates read-write and read-only keys with Healthchecks messages', async () => {
  const p = await createProject(db, { name: 'Auth' });
  expect(await authenticate(db, p.api_key, 'write')).toEqual({ projectId: p.id, readOnly: false, role: 'regular', actor: { personId: null, label: 'API key (read-write)' } });
  expect(await authenticate(db, p.api_key_readonly, 'read')).toEqual({ projectId: p.id, readOnly: true, role: 'readonly', actor: { personId: null, label: 'API key (read-only)' } });
  await expect(authenticate(db, p.api_key_readonly, 'write')).rejects.toThrow('wrong api key');
  await expect(authenticate(db, '', 'read')).rejects.toThrow('missing api key');
  await expect(authenticate(db, 'x'.repeat(31), 'read')).rejects.toThrow('missing api key');
  await expect(authenticate(db, 'x'.repeat(32), 'read')).rejects.toThrow('wrong api key');
});

it('rotates and revokes keys: the old key stops working at once', async () => {
  const p = await createProject(db, { name: 'Rotate' });
  const fresh = await rotateKey(db, p.id, 'api_key');
  await expect(authenticate(db, p.api_key, 'write')).rejects.toThrow('wrong api key');
  expect(await authenticate(db, fresh, 'write')).toMatchObject({ projectId: p.id });
  await revokeKey(db, p.id, 'api_key_readonly');
  await expect(authenticate(db, p.api_key_readonly, 'read')).rejects.toThrow('wrong api key');
  await expect(rotateKey(db, 'missing', 'api_key')).rejects.toThrow('project not found');
});
