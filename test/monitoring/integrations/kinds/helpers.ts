// What the kinds' tests share: the message of a validation refusal, a check that flips down
// through one new channel of a kind, and the contract of every hook-URL kind.
import { describe, expect, it } from 'vitest';
import { createWorld, type World } from '../../../helpers/world.ts';
import type { HttpReceiver } from '../../../helpers/receivers.ts';
import { createChannel, validateChannelInput } from '../../../../src/monitoring/integrations/service.ts';
import { runMonitorPass } from '../../../../src/monitoring/monitor/pass.ts';
import { DomainError } from '../../../../src/shared/errors.ts';
import type { CreatedProject } from '../../../../src/monitoring/projects/service.ts';

/** The VALIDATION message `fn` throws; fails the test if it throws anything else or nothing. */
export function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(DomainError);
    expect((e as DomainError).code).toBe('VALIDATION');
    return (e as Error).message;
  }
  throw new Error('expected a validation error, got none');
}

/** A check named `name` in alice's project notifying one new channel, pinged up then failed. */
export async function flipDown(w: World, kind: string, value: string, name = 'backup', extra: Record<string, unknown> = {}) {
  const channel = await createChannel(w.app.db, w.alice.id, { kind, value });
  const created = await w.api('POST', '/api/v3/checks/', { body: { name, channels: channel.code, ...extra } });
  await w.ping(`/ping/${created.json.uuid}`);
  await w.ping(`/ping/${created.json.uuid}/fail`, { method: 'POST', body: 'disk full' });
  await w.app.notifier.tick();
  return created.json.uuid as string;
}

/**
 * What every kind whose value is an http(s) hook URL must do, whatever it posts: take such a URL,
 * refuse anything else with Healthchecks' message, and, switched off by its operator setting,
 * refuse the alert for good without sending anything. Each kind's file adds what is its own.
 */
export function hookKindContract(kind: string, o: { label: string; switch: string; notAUrl: string; receiver: HttpReceiver }) {
  describe(`${kind}: the value`, () => {
    it('accepts an http(s) hook URL', () => {
      expect(validateChannelInput({ kind, value: 'https://chat.example.org/hooks/abc' })).toMatchObject({ kind, notifyDown: true, notifyUp: true });
    });

    it('refuses a value that is not an http(s) URL', () => {
      expect(refusal(() => validateChannelInput({ kind, value: o.notAUrl }))).toBe('value is not a valid http(s) URL');
    });
  });

  describe(`${kind}: switched off`, () => {
    it(`is refused for good when ${o.switch} is False, and nothing is sent`, async () => {
      const w = await createWorld({ [o.switch]: 'False' });
      try {
        o.receiver.requests.length = 0;
        await flipDown(w, kind, `${o.receiver.url}/hook`);
        expect(await w.app.db.notification.findMany()).toMatchObject([{ state: 'failed', attempts: 1, lastError: `${o.label} notifications are not enabled.` }]);
        expect(o.receiver.requests).toHaveLength(0);
      } finally {
        await w.stop();
      }
    });
  });
}

/**
 * A check (timeout and grace 1 minute) in `project` (alice's by default) notifying one new
 * channel, pinged once. `down()`: 10 minutes without a ping, a monitor pass (the flip is
 * "timeout", dated 2 minutes after the ping) and the notifier; `up()`: a ping 30 minutes later
 * and the notifier. The incident kinds' tests drive an alert each way with it, several tests on
 * one world: the world's earlier checks are deleted first, so the pass flips this one only.
 */
export async function incidentCheck(
  w: World,
  kind: string,
  value: string,
  o: { name?: string; tags?: string; desc?: string; project?: CreatedProject } = {},
) {
  const project = o.project ?? w.alice;
  await w.app.db.check.deleteMany();
  const channel = await createChannel(w.app.db, project.id, { kind, value });
  const created = await w.api('POST', '/api/v3/checks/', {
    key: project.api_key,
    body: { name: o.name ?? 'backup', tags: o.tags ?? '', desc: o.desc ?? '', timeout: 60, grace: 60, channels: channel.code },
  });
  const uuid = created.json.uuid as string;
  const { uniqueKey } = await w.app.db.check.findUniqueOrThrow({ where: { code: uuid } });
  await w.ping(`/ping/${uuid}`);
  return {
    uuid,
    uniqueKey,
    channel,
    async down() {
      w.clock.advance(600_000);
      await runMonitorPass(w.app.deps, w.clock.now());
      await w.app.notifier.tick();
    },
    async up() {
      w.clock.advance(1_800_000);
      await w.ping(`/ping/${uuid}`);
      await w.app.notifier.tick();
    },
  };
}

/** The notifications of a channel, oldest first. */
export function notificationsOf(w: World, channelId: number) {
  return w.app.db.notification.findMany({ where: { channelId }, orderBy: { id: 'asc' } });
}
