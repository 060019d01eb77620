// INTEGRATIONS_ALLOW_PRIVATE_IPS (Healthchecks' setting, off by default): a user's webhook may
// not make the gateway connect to its own network.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld } from '../../../../helpers/world.ts';
import { startHttpReceiver, type HttpReceiver } from '../../../../helpers/receivers.ts';
import { createChannel } from '../../../../../src/monitoring/integrations/service.ts';
import { isPrivateAddress, publicLookup } from '../../../../../src/monitoring/integrations/kinds/shared/private-ips.ts';

let receiver: HttpReceiver;
beforeAll(async () => (receiver = await startHttpReceiver()));
afterAll(() => receiver.close());

describe('isPrivateAddress', () => {
  it.each(['127.0.0.1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1'])(
    '%s is private',
    (a) => expect(isPrivateAddress(a)).toBe(true),
  );
  it.each(['8.8.8.8', '172.32.0.1', '1.1.1.1', '2606:4700::1111', '::ffff:8.8.8.8'])('%s is public', (a) => expect(isPrivateAddress(a)).toBe(false));
});

describe('webhooks to private addresses', () => {
  for (const host of ['127.0.0.1', 'localhost']) {
    it(`are refused by default (${host}), and nothing is sent`, async () => {
      const w = await createWorld({ INTEGRATIONS_ALLOW_PRIVATE_IPS: 'False' });
      try {
        receiver.requests.length = 0;
        const port = new URL(receiver.url).port;
        const channel = await createChannel(w.app.db, w.alice.id, { kind: 'webhook', value: `http://${host}:${port}/hook` });
        const created = await w.api('POST', '/api/v3/checks/', { body: { name: 'x', channels: channel.code } });
        await w.ping(`/ping/${created.json.uuid}/fail`);
        await w.app.notifier.tick();
        const [n] = await w.app.db.notification.findMany();
        expect(n).toMatchObject({ state: 'failed', lastError: 'Connections to private IP addresses are not allowed' });
        expect(receiver.requests).toHaveLength(0);
      } finally {
        await w.stop();
      }
    });
  }

  it('refuses a name that resolves to a private address: the lookup the connection uses fails', async () => {
    const result = await new Promise<{ code?: string; message: string }>((resolve) =>
      publicLookup('localhost', {}, (err) => resolve(err ? { code: err.code, message: err.message } : { message: 'resolved' })),
    );
    expect(result).toEqual({ code: 'EPRIVATEIP', message: 'Connections to private IP addresses are not allowed' });
  });
});
