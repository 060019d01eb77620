// `gateway import-healthchecks` on an instance written from Healthchecks' models
// (test/fixtures/healthchecks/dump.json: two projects, five users, simple, cron and OnCalendar
// checks, pings with bodies, flips, email, webhook, Slack and Signal channels, notifications).
// After the import the old instance's URLs, keys and sign-ins answer here as they did there.
// The fixture's secrets: the instance's SECRET_KEY is below; the users' passwords are
// alice-old-password (pbkdf2_sha256), bob-old-password (pbkdf2_sha1), "password" for carol
// (the argon2id reference vector), admin-old-password (salted MD5); dave has none.
import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useWorld } from '../../helpers/fixtures.ts';
import { browserClient } from '../../helpers/browser-client.ts';
import { gql } from '../../helpers/gql.ts';
import { changedTables, openSnapshotter, type Snapshotter } from '../../helpers/db-snapshot.ts';
import { gatewayIn } from '../../cli/in-process.ts';
import { hashKey } from '../../../src/monitoring/projects/keys.ts';
import nodemailer from 'nodemailer';

const FIXTURE = path.join(import.meta.dirname, '../../fixtures/healthchecks/dump.json');
const dump = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Array<{ model: string; pk: number; fields: Record<string, any> }>;
const SECRET_KEY = 'django-insecure-hc-old-instance-4f8a1b2c3d4e5f60718293a4b5c6d7e8';

const BACKUPS = '9b0c6e3a-2d41-4f5e-8a7b-1c2d3e4f5a6b';
const WEB_SHOP = '2e8d4f1a-7b3c-4d5e-9f60-718293a4b5c6';
// The keys as the old instance handed them out (it stored the hcw_/hcr_ ones hashed).
const KEYS = {
  backupsRw: 'hcw_Abc123Def456Ghi789Jkl012Mno3',
  backupsRo: 'Xk3vQ9_mW2pL7-hR4tY8uE1iO6aS0dFg',
  shopRw: 'pB7nM2xK9-qW4eR8tY1uI5oP3aS6dF0g',
  shopRo: 'hcr_Zyx987Wvu654Tsr321Qpo098Nml7',
};
const CHECKS = {
  backup: '7e2a9c4d-1b3f-4e5a-8c6d-0f1e2a3b4c5d',
  dbDump: '4c8e1f2a-3b5d-4c6e-9f7a-8b9c0d1e2f3a',
  mailer: 'd3e4f5a6-b7c8-4d9e-8f0a-1b2c3d4e5f6a',
  cleanup: 'e5f6a7b8-c9d0-4e1f-9a2b-3c4d5e6f7a8b',
  health: 'f6a7b8c9-d0e1-4f2a-8b3c-4d5e6f7a8b9c',
  sitemap: 'a7b8c9d0-e1f2-4a3b-9c4d-5e6f7a8b9c0d',
  worker: 'b8c9d0e1-f2a3-4b4c-8d5e-6f7a8b9c0d1e',
};
const CHANNELS = { email: '8a9b0c1d-2e3f-4a5b-8c6d-7e8f9a0b1c2d', webhook: '9b0c1d2e-3f4a-4b5c-9d7e-8f9a0b1c2d3e', hipchat: '0c1d2e3f-4a5b-4c6d-8e8f-9a0b1c2d3e4f' };

const SIGN_IN = `mutation($u: String!, $p: String!, $totp: String) { signIn(username: $u, password: $p, totp: $totp) { username } }`;

// Mail to <uuid>@PING_DOMAIN pings the check, as the old instance's address did.
const PING_DOMAIN = 'hc.example.org';
const w = useWorld({ SMTPD_PORT: '0', PING_EMAIL_DOMAIN: PING_DOMAIN });
let snapshots: Snapshotter;
const importHc = (...args: string[]) => gatewayIn({ DATABASE_URL: w.databaseUrl }, ['import-healthchecks', ...args]);
const passwordOf = async (email: string) => {
  const point = await w.app.db.contactPoint.findFirstOrThrow({ where: { Data: email }, include: { person: true } });
  return point.person.PasswordHash;
};

beforeAll(async () => {
  snapshots = await openSnapshotter(w.databaseUrl);
});
afterAll(async () => {
  await snapshots.close();
});

describe('import-healthchecks --file (dumpdata)', () => {
  it('--dry-run prints what would be created, and writes nothing', async () => {
    const before = await snapshots.snapshot();
    const text = await importHc('--file', FIXTURE, '--dry-run');
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('Dry run: nothing was written');
    expect(text.stdout).toContain(`project "Backups" (${BACKUPS}): would be created`);
    expect(text.stdout).toContain('checks: 7 would be created');
    // The unsupported kind is said, and what is done with it.
    expect(text.stdout).toMatch(/hipchat\): this server cannot send hipchat notifications yet: imported disabled/);
    // Without the SECRET_KEY the hashed keys cannot come along: said, not silently dropped.
    expect(text.stdout).toContain('its read-write API key is stored hashed; without --secret-key');
    const json = await importHc('--file', FIXTURE, '--dry-run', '--secret-key', SECRET_KEY, '--json');
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout);
    expect(report.dry_run).toBe(true);
    expect(report.counts.projects).toEqual({ created: 2, updated: 0, unchanged: 0 });
    expect(report.counts.checks.created).toBe(7);
    expect(report.counts.channels.created).toBe(5);
    expect(report.counts.pings.created).toBe(12);
    expect(report.counts.accounts.created).toBe(5);
    expect(report.warnings).toEqual([]);
    expect(changedTables(before, await snapshots.snapshot())).toEqual([]);
  });

  it('imports both projects with the instance SECRET_KEY', async () => {
    const res = await importHc('--file', FIXTURE, '--secret-key', SECRET_KEY, '--json');
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const report = JSON.parse(res.stdout);
    expect(report.projects.map((p: { outcome: string }) => p.outcome)).toEqual(['created', 'created']);
    expect(report.counts.memberships.created).toBe(6);
    // Three from Healthchecks' history, two for the alert it had detected but not sent.
    expect(report.counts.notifications.created).toBe(5);
    expect(report.notes).toContain(`project "Web shop" (${WEB_SHOP}): 2 alerts Healthchecks had detected but not sent yet are queued here`);
  });

  it('answers GET /api/v3/checks/ for the old hashed read-write key with the same UUIDs, names and statuses', async () => {
    const res = await w.api('GET', '/api/v3/checks/', { key: KEYS.backupsRw });
    expect(res.status).toBe(200);
    expect(res.json.checks.map((c: any) => [c.uuid, c.name, c.status])).toEqual([
      [CHECKS.backup, 'Nightly backup', 'up'],
      [CHECKS.dbDump, 'DB dump', 'down'],
      [CHECKS.mailer, 'Report mailer', 'paused'],
      [CHECKS.cleanup, 'Weekly cleanup', 'up'],
    ]);
    const [backup, dbDump, mailer, cleanup] = res.json.checks;
    expect(backup).toMatchObject({
      slug: 'nightly-backup',
      tags: 'prod backup',
      desc: 'rsync to the NAS',
      grace: 3600,
      timeout: 86400,
      n_pings: 4,
      last_ping: '2026-01-05T03:00:00+00:00',
      next_ping: '2026-01-06T03:00:00+00:00',
      last_duration: 750,
      channels: [CHANNELS.hipchat, CHANNELS.email, CHANNELS.webhook].sort().join(','),
      badge_url: `${w.url}/b/2/0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d.svg`,
    });
    expect(dbDump).toMatchObject({ schedule: '0 3 * * *', tz: 'Europe/Riga', grace: 1800, n_pings: 2 });
    expect(mailer).toMatchObject({ manual_resume: true, methods: 'POST', start_kw: 'starting', success_kw: 'finished', failure_kw: 'error', filter_body: true, filter_default_fail: true });
    expect(cleanup).toMatchObject({ schedule: 'Mon *-*-* 04:00', tz: 'UTC', next_ping: '2026-01-12T04:00:00+00:00' });
    // Its first use replaced the stored verifier by the key's sha256, as for our own keys.
    const project = await w.app.db.project.findUniqueOrThrow({ where: { id: BACKUPS } });
    expect(project.apiKeyHash).toBe(hashKey(KEYS.backupsRw));
    expect((await w.api('GET', '/api/v3/checks/', { key: KEYS.backupsRw })).status).toBe(200);
  });

  it('answers for the plain keys of older instances, and the hashed read-only key reads but cannot write', async () => {
    const ro = await w.api('GET', '/api/v3/checks/', { key: KEYS.backupsRo });
    expect(ro.status).toBe(200);
    expect(ro.json.checks.map((c: any) => [c.name, c.status, c.uuid])).toEqual([
      ['Nightly backup', 'up', undefined],
      ['DB dump', 'down', undefined],
      ['Report mailer', 'paused', undefined],
      ['Weekly cleanup', 'up', undefined],
    ]);
    const shop = await w.api('GET', '/api/v3/checks/', { key: KEYS.shopRw });
    expect(shop.json.checks.map((c: any) => [c.uuid, c.name, c.status, c.started])).toEqual([
      [CHECKS.health, 'Web health', 'new', false],
      [CHECKS.sitemap, 'Sitemap', 'grace', true],
      [CHECKS.worker, 'Queue worker', 'down', false],
    ]);
    const shopRo = await w.api('GET', `/api/v3/checks/`, { key: KEYS.shopRo });
    expect(shopRo.json.checks.map((c: any) => c.name)).toEqual(['Web health', 'Sitemap', 'Queue worker']);
    const write = await w.api('POST', `/api/v3/checks/${CHECKS.health}/pause`, { key: KEYS.shopRo });
    expect(write).toMatchObject({ status: 401, json: { error: 'wrong api key' } });
    // Another project's key is another project's.
    expect((await w.api('GET', `/api/v3/checks/${CHECKS.backup}`, { key: KEYS.shopRw })).status).toBe(403);
  });

  it('keeps the old ping URLs: by UUID and by ping key and slug; numbers and state go on from Healthchecks', async () => {
    const byUuid = await w.ping(`/ping/${CHECKS.backup}`, { method: 'POST', body: 'tonight too' });
    expect(byUuid).toMatchObject({ status: 200, text: 'OK' });
    const bySlug = await w.ping('/ping/x7k2m9p4q8r1s5t3v6w0yz/db-dump');
    expect(bySlug).toMatchObject({ status: 200, text: 'OK' });
    expect((await w.ping('/ping/a9b8c7d6e5f4g3h2i1j0kl/web-health/start')).status).toBe(200);
    const backup = await w.app.db.check.findUniqueOrThrow({ where: { code: CHECKS.backup } });
    expect(backup.nPings).toBe(5);
    expect(await w.app.db.ping.count({ where: { checkId: backup.id, n: 5 } })).toBe(1);
    // The down check came back up: a flip down -> up after the imported up -> down.
    const dbDump = await w.api('GET', `/api/v3/checks/${CHECKS.dbDump}/flips/`, { key: KEYS.backupsRw });
    expect(dbDump.json.flips.map((f: any) => f.up)).toEqual([1, 0, 1]);
    // The imported pings, bodies included, are listed as Healthchecks listed them.
    const pings = await w.api('GET', `/api/v3/checks/${CHECKS.backup}/pings/`, { key: KEYS.backupsRw });
    expect(pings.json.pings.map((p: any) => [p.n, p.type])).toEqual([
      [5, 'success'],
      [4, 'success'],
      [3, 'start'],
      [2, 'success'],
      [1, 'start'],
    ]);
    const body = await w.api('GET', `/api/v3/checks/${CHECKS.backup}/pings/4/body`, { key: KEYS.backupsRw });
    expect(body.text).toBe('done: 12 GB transferred\n');
    const sitemap = await w.api('GET', `/api/v3/checks/${CHECKS.sitemap}/pings/`, { key: KEYS.shopRw });
    expect(sitemap.json.pings.map((p: any) => p.n)).toEqual([8, 7, 6]);
  });

  it("keeps the old ping email address: mail to <uuid>@<domain> pings the imported check", async () => {
    const before = await w.app.db.check.findUniqueOrThrow({ where: { code: CHECKS.mailer } });
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: w.app.smtpd!.port, secure: false, ignoreTLS: true });
    try {
      await transport.sendMail({ from: 'cron@example.org', to: `${CHECKS.mailer}@${PING_DOMAIN}`, subject: 'mailer ran', text: 'sent 12 messages' });
    } finally {
      transport.close();
    }
    const after = await w.app.db.check.findUniqueOrThrow({ where: { code: CHECKS.mailer } });
    expect(after.nPings).toBe(before.nPings + 1);
    const newest = await w.app.db.ping.findFirstOrThrow({ where: { checkId: after.id }, orderBy: { n: 'desc' } });
    expect(newest).toMatchObject({ n: before.nPings + 1, scheme: 'email' });
  });

  it("keeps the badge URLs: the project's, signed as the old instance signed them, and each check's", async () => {
    // Healthchecks' get_badge_url: base64_hmac(badge_key, tag, SECRET_KEY, "sha1")[:8], where
    // Django keys the HMAC with sha1(salt + secret).
    const key = createHash('sha1').update(`6f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0${SECRET_KEY}`).digest();
    const signature = createHmac('sha1', key).update('backup').digest('base64url').slice(0, 8);
    const tagged = await w.api('GET', `/badge/6f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0/${signature}-2/backup.json`, { key: null });
    expect(tagged).toMatchObject({ status: 200, json: { status: 'up', total: 1, down: 0 } });
    const forged = await w.api('GET', `/badge/6f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0/AAAAAAAA-2/backup.json`, { key: null });
    expect(forged.status).toBe(404);
    const check = await w.api('GET', '/b/2/6a7b8c9d-0e1f-4a2b-8c3d-5e6f7a8b9c0d.json', { key: null });
    expect(check).toMatchObject({ status: 200, json: { status: 'down' } });
  });

  it('imports the channels: supported kinds in our form, others as stored but disabled, with the assignments', async () => {
    const channels = await w.api('GET', '/api/v3/channels/', { key: KEYS.backupsRw });
    expect(channels.json.channels).toEqual([
      { id: CHANNELS.email, name: 'Ops team', kind: 'email' },
      { id: CHANNELS.webhook, name: 'Incident hook', kind: 'webhook' },
      { id: CHANNELS.hipchat, name: 'Ops chat', kind: 'hipchat' },
    ]);
    const rows = await w.app.db.channel.findMany({ where: { projectId: BACKUPS }, orderBy: { id: 'asc' } });
    expect(rows.map((c) => [c.kind, c.value.slice(0, 40), c.disabled])).toEqual([
      ['email', 'ops@example.org', false],
      ['webhook', expect.stringContaining('"method_down":"POST"'), false],
      ['hipchat', 'https://api.hipchat.com/v2/room/123/noti', true],
    ]);
    // GraphQL (and the management app) list the channels it can describe; the kept ones wait for their kind.
    const listed = await gql(w, `{ project { channels { uuid kind disabled } checks(first: 1) { nodes { channels { uuid } } } } }`, {}, KEYS.backupsRw);
    expect(listed.errors).toBeUndefined();
    expect(listed.data.project.channels).toEqual([
      { uuid: CHANNELS.email, kind: 'EMAIL', disabled: false },
      { uuid: CHANNELS.webhook, kind: 'WEBHOOK', disabled: false },
    ]);
    expect(listed.data.project.checks.nodes[0].channels.map((c: { uuid: string }) => c.uuid).sort()).toEqual([CHANNELS.email, CHANNELS.webhook].sort());
    // The alert Healthchecks detected (an unprocessed flip) but never sent goes out from here.
    const queued = await w.app.db.notification.findMany({ where: { check: { code: CHECKS.worker } }, include: { channel: true, flip: true } });
    expect(queued.map((n) => [n.channel!.kind, n.state, n.status, n.flip?.createdAt]).sort()).toEqual([
      ['email', 'pending', 'down', new Date('2026-01-05T09:58:00Z')],
      ['slack', 'pending', 'down', new Date('2026-01-05T09:58:00Z')],
    ]);
    const slack = await w.app.db.channel.findFirstOrThrow({ where: { projectId: WEB_SHOP, kind: 'slack' } });
    expect(slack.value).toBe('https://hooks.slack.com/services/T000/B000/XXXXXXXX');
    const note = await w.app.db.auditEntry.findFirstOrThrow({ where: { projectId: BACKUPS, targetId: CHANNELS.hipchat } });
    expect(JSON.parse(note.detail!)).toMatchObject({ kind: 'hipchat', imported_from: 'healthchecks', note: expect.stringContaining('imported disabled') });
    // Healthchecks' notification history, with its outcome (the ping test's recovery added to it since).
    const sent = await w.app.db.notification.findMany({ where: { check: { code: CHECKS.dbDump }, createdAt: { lt: new Date('2026-01-05T00:00:00Z') } }, orderBy: { id: 'asc' }, include: { flip: true } });
    expect(sent.map((n) => [n.state, n.lastError, n.flip?.newStatus])).toEqual([
      ['sent', '', 'down'],
      ['failed', 'Received status code 500', 'down'],
    ]);
  });

  it('makes the users accounts with their memberships, roles, levels and report settings', async () => {
    const members = await w.app.db.projectMember.findMany({ where: { projectId: BACKUPS }, include: { person: { include: { contactPoints: true } } }, orderBy: { role: 'asc' } });
    expect(members.map((m) => [m.person.contactPoints[0]!.Data, m.role]).sort()).toEqual([
      ['alice@example.org', 'owner'],
      ['bob@example.org', 'readonly'],
      ['carol@example.org', 'manager'],
      ['dave@example.org', 'regular'],
    ]);
    const shop = await w.app.db.projectMember.findMany({ where: { projectId: WEB_SHOP }, include: { person: true } });
    expect(shop.map((m) => [m.person.Username, m.role]).sort()).toEqual([
      ['3f9a1c2e-5b7d-4e8f-9a0b-1c2d3e', 'regular'],
      ['b7e4d2a1-9c3f-4a5b-8d6e-7f8091', 'owner'],
    ]);
    const admin = await w.app.db.person.findFirstOrThrow({ where: { Username: 'admin' } });
    expect(admin.AccountLevel).toBe('Administrator');
    const alice = await w.app.db.person.findFirstOrThrow({ where: { Username: '3f9a1c2e-5b7d-4e8f-9a0b-1c2d3e' }, include: { reportProfile: true, securityKeys: true } });
    expect([alice.FirstName, alice.LastName, alice.AccountLevel]).toEqual(['Alice', 'Liddell', 'User']);
    expect(alice.reportProfile).toMatchObject({ reports: 'weekly', nagPeriod: 3600, tz: 'Europe/Riga', nextReportAt: new Date('2026-01-12T07:42:00Z') });
    expect(alice.securityKeys.map((k) => [k.name, k.credentialId])).toEqual([['YubiKey 5C', 'wP_uABEiM0RVZneImaq7zN3u_wARIjNE']]);
    // Healthchecks applies the owner's ping log limit to the owner's projects.
    expect((await w.app.db.project.findUniqueOrThrow({ where: { id: BACKUPS } })).pingLogLimit).toBe(1000);
  });

  it('signs in with the old passwords (pbkdf2_sha256, pbkdf2_sha1, argon2id, salted MD5) and replaces each hash by ours', async () => {
    const cases: Array<[string, string]> = [
      ['bob@example.org', 'bob-old-password'],
      ['carol@example.org', 'password'],
      ['admin@example.org', 'admin-old-password'],
    ];
    for (const [email, password] of cases) {
      expect(await passwordOf(email)).toMatch(/^django\$/);
      expect((await browserClient(w).gql(SIGN_IN, { u: email, p: 'not it at all' })).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
      const res = await browserClient(w).gql(SIGN_IN, { u: email, p: password });
      expect(res.errors).toBeUndefined();
      expect(await passwordOf(email)).toMatch(/^scrypt\$/);
      expect((await browserClient(w).gql(SIGN_IN, { u: email, p: password })).errors).toBeUndefined();
    }
    // No password in Healthchecks (an emailed-link account): none here either.
    expect(await passwordOf('dave@example.org')).toBeNull();
  });

  it('keeps the authenticator app: the imported TOTP secret is asked for and accepted', async () => {
    const asked = await browserClient(w).gql(SIGN_IN, { u: 'alice@example.org', p: 'alice-old-password' });
    // Her security key came along too.
    expect(asked.errors?.[0]?.extensions).toEqual({ code: 'SECOND_FACTOR_REQUIRED', methods: ['TOTP', 'SECURITY_KEY'] });
    const totp = new TOTP({ secret: Secret.fromBase32('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP') }).generate({ timestamp: w.clock.now().getTime() });
    const res = await browserClient(w).gql(SIGN_IN, { u: 'alice@example.org', p: 'alice-old-password', totp });
    expect(res.errors).toBeUndefined();
    expect(await passwordOf('alice@example.org')).toMatch(/^scrypt\$/);
  });

  it('a second import changes nothing, after keys were used or rotated, pings received and passwords upgraded here', async () => {
    // The read-only key of Backups is replaced here: the old instance's key stays revoked.
    const rotated = await gatewayIn({ DATABASE_URL: w.databaseUrl }, ['key', 'rotate', '--project', BACKUPS, '--read-only', '--json']);
    expect(rotated.code).toBe(0);
    const before = await snapshots.snapshot();
    const res = await importHc('--file', FIXTURE, '--secret-key', SECRET_KEY, '--json');
    expect(res.code).toBe(0);
    const report = JSON.parse(res.stdout);
    expect(report.projects.map((p: { outcome: string }) => p.outcome)).toEqual(['unchanged', 'unchanged']);
    expect(changedTables(before, await snapshots.snapshot())).toEqual([]);
    // Without the secret, the keys upgraded here are kept too.
    await importHc('--file', FIXTURE);
    expect(changedTables(before, await snapshots.snapshot())).toEqual([]);
    expect((await w.api('GET', '/api/v3/checks/', { key: KEYS.backupsRo })).status).toBe(401);
    expect((await w.api('GET', '/api/v3/checks/', { key: JSON.parse(rotated.stdout).key })).status).toBe(200);
  });

  it('refuses a project whose UUIDs or keys are another project here, naming them, and writes nothing of it', async () => {
    const other = structuredClone(dump);
    const p1 = other.find((o) => o.model === 'accounts.project' && o.pk === 1)!;
    // A third project (a copy of the first under a new UUID) whose check UUIDs are the first's.
    other.push({ ...p1, pk: 3, fields: { ...p1.fields, code: '11111111-2222-4333-8444-999999999999', name: 'Copy', ping_key: 'zzzzzzzzzzzzzzzzzzzzzz', badge_key: 'copy-badge', api_key: '', api_key_readonly: '' } });
    const c1 = other.find((o) => o.model === 'api.check' && o.pk === 1)!;
    other.push({ ...c1, pk: 99, fields: { ...c1.fields, project: 3, badge_key: '99999999-8888-4777-8666-555555555555' } });
    // And a fourth that brings the first project's ping key.
    other.push({ ...p1, pk: 4, fields: { ...p1.fields, code: '11111111-2222-4333-8444-aaaaaaaaaaaa', name: 'Same ping key', badge_key: 'other-badge', api_key: '', api_key_readonly: '' } });
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'hc-conflict-')), 'dump.json');
    writeFileSync(file, JSON.stringify(other));
    const before = await snapshots.snapshot();
    const res = await importHc('--file', file, '--secret-key', SECRET_KEY);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain(`project "Copy" (11111111-2222-4333-8444-999999999999): refused, nothing of it was written: project "Copy" (11111111-2222-4333-8444-999999999999): check ${CHECKS.backup} ("Nightly backup") is already a check of project ${BACKUPS} here`);
    expect(res.stdout).toContain(`its ping key is already project "Backups" (${BACKUPS})'s here`);
    expect(res.stderr).toContain('2 projects were refused');
    expect(changedTables(before, await snapshots.snapshot())).toEqual([]);
    expect(await w.app.db.project.count({ where: { id: { startsWith: '11111111' } } })).toBe(0);
  });
});
