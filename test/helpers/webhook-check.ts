// A check in alice's project that notifies one new webhook channel (a bare URL or a spec), as
// the delivery and webhook tests set it up.
import { expect } from 'vitest';
import type { World } from './world.ts';
import { createChannel } from '../../src/monitoring/integrations/service.ts';

export type WebhookChannelValue = string | { webhook: Parameters<typeof createChannel>[2]['webhook'] };

export async function checkWithWebhook(w: World, channelValue: WebhookChannelValue, spec: Record<string, unknown> = {}) {
  const channel = await createChannel(w.app.db, w.alice.id, typeof channelValue === 'string' ? { kind: 'webhook', value: channelValue } : { kind: 'webhook', ...channelValue });
  const created = await w.api('POST', '/api/v3/checks/', { body: { name: 'backup', timeout: 60, grace: 60, channels: channel.code, ...spec } });
  expect(created.status).toBe(201);
  return { uuid: created.json.uuid as string, channel };
}
