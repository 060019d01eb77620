// updateChannel's two ways with a webhook spec, in the domain so both transports get the same
// rule: merged field by field (the CLI's options left out keep their value) or replaced whole
// (GraphQL's updateChannel sends the spec it wants).
import { expect, it } from 'vitest';
import { useWorld } from '../../helpers/fixtures.ts';
import { createChannel, updateChannel } from '../../../src/monitoring/integrations/service.ts';
import { webhookSpecFromValue } from '../../../src/monitoring/integrations/kinds/webhook/spec.ts';

const w = useWorld();

const hook = () =>
  createChannel(w.app.db, w.alice.id, {
    kind: 'webhook',
    webhook: { down: { url: 'https://hooks.example.org/down', body: 'down $NAME' }, up: { url: 'https://hooks.example.org/up', method: 'PUT' } },
  });

it('with mergeSpec changes only the fields the patch names, side by side', async () => {
  const channel = await hook();
  const updated = await updateChannel(w.app.db, w.alice.id, channel.code, { webhook: { down: { body: 'now $STATUS' } } }, { mergeSpec: true });
  const spec = webhookSpecFromValue(updated.value)!;
  expect(spec.down).toMatchObject({ url: 'https://hooks.example.org/down', body: 'now $STATUS' });
  expect(spec.up).toMatchObject({ url: 'https://hooks.example.org/up', method: 'PUT' });
  expect([updated.notifyDown, updated.notifyUp]).toEqual([true, true]);
});

it('without it replaces the spec whole: a side left out sends nothing', async () => {
  const channel = await hook();
  const updated = await updateChannel(w.app.db, w.alice.id, channel.code, { webhook: { down: { url: 'https://hooks.example.org/new' } } });
  const spec = webhookSpecFromValue(updated.value)!;
  expect(spec.down).toMatchObject({ url: 'https://hooks.example.org/new', body: '' });
  expect(spec.up.url).toBe('');
  expect([updated.notifyDown, updated.notifyUp]).toEqual([true, false]);
  // Stored as answered.
  expect((await w.app.db.channel.findUniqueOrThrow({ where: { code: channel.code } })).value).toBe(updated.value);
});
