// Two things a Healthchecks channel carries over beyond its kind and value: a group's members
// (an alert Healthchecks detected but had not sent, queued here, reaches the group's members,
// each once, and never the group itself) and email_verified (a recipient who never confirmed
// still has not). The fixture's "Web shop" project, changed in memory: its Slack channel is
// reached through a new group instead of directly, and its email channel is unconfirmed.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useWorld } from '../../helpers/fixtures.ts';
import { gatewayIn } from '../../cli/in-process.ts';

type Row = { model: string; pk: number; fields: Record<string, any> };
const dump = JSON.parse(readFileSync(path.join(import.meta.dirname, '../../fixtures/healthchecks/dump.json'), 'utf8')) as Row[];
const GROUP = '6f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0';

function changedDump(): string {
  const rows = structuredClone(dump);
  const channel = (pk: number) => rows.find((r) => r.model === 'api.channel' && r.pk === pk)!;
  const email = channel(4);
  const slack = channel(5);
  email.fields.email_verified = false;
  // The check with the unsent flip (7) reaches Slack only through the group; the email channel
  // is assigned directly and is a member as well.
  slack.fields.checks = slack.fields.checks.filter((c: number) => c !== 7);
  rows.push({
    model: 'api.channel',
    pk: 6,
    fields: { code: GROUP, project: email.fields.project, name: 'Everyone', created: '2026-01-01T00:00:00Z', kind: 'group', value: `${email.fields.code},${slack.fields.code}`, disabled: false, email_verified: true, checks: [7] },
  });
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'hc-group-')), 'dump.json');
  writeFileSync(file, JSON.stringify(rows));
  return file;
}

const w = useWorld();

describe('import-healthchecks: groups and unconfirmed addresses', () => {
  it('queues the unsent alert for the group’s members, each once, and keeps email_verified', async () => {
    const res = await gatewayIn({ DATABASE_URL: w.databaseUrl }, ['import-healthchecks', '--file', changedDump(), '--json']);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);

    const byCode = async (code: string) => w.app.db.channel.findUniqueOrThrow({ where: { code } });
    const email = dump.find((r) => r.model === 'api.channel' && r.pk === 4)!.fields.code as string;
    const slack = dump.find((r) => r.model === 'api.channel' && r.pk === 5)!.fields.code as string;
    expect(await byCode(GROUP)).toMatchObject({ kind: 'group', disabled: false });
    expect((await byCode(email)).emailVerified).toBe(false);

    const queued = await w.app.db.notification.findMany({ where: { reason: 'flip', state: 'pending' }, include: { channel: { select: { code: true } } } });
    expect(queued.map((n) => n.channel?.code).sort()).toEqual([email, slack].sort());
  });
});
