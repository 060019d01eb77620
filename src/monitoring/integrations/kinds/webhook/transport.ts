// Webhooks as Healthchecks sends them (hc/integrations/webhook/transport.py): the spec's side for
// the new status, placeholders replaced, URL values URL-encoded, header values Latin-1, a body
// only for POST and PUT. A channel whose value is a bare URL posts our JSON document instead.
// WEBHOOKS_ENABLED is checked before (the definition's `enabled`).
import { webhookSpecFromValue, type WebhookSide } from './spec.ts';
import { defaultDocument, prepare } from './message.ts';
import { baseUrlFor, httpAttempt } from '../shared/http.ts';
import { DeliveryError, type Delivery, type Transport } from '../shared/transport.ts';

async function sendSide(side: WebhookSide, d: Delivery) {
  const url = await prepare(side.url, d, { urlencode: true });
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(side.headers)) headers[key] = await prepare(value, d, { latin1: true });
  let body: string | undefined;
  if (side.body && (side.method === 'POST' || side.method === 'PUT')) body = await prepare(side.body, d, { allowPingBody: true });
  await httpAttempt({ method: side.method, url, headers, body, timeoutMs: d.settings.timeoutMs, idempotencyKey: d.id, allowPrivateIps: d.settings.allowPrivateIps, baseUrl: baseUrlFor(d) });
}

export const webhookTransport: Transport = {
  async send(d) {
    const spec = webhookSpecFromValue(d.channel.value);
    if (!spec) {
      const body = JSON.stringify(defaultDocument(d));
      await httpAttempt({
        method: 'POST',
        url: d.channel.value,
        headers: { 'Content-Type': 'application/json' },
        body,
        timeoutMs: d.settings.timeoutMs,
        idempotencyKey: d.id,
        allowPrivateIps: d.settings.allowPrivateIps,
        baseUrl: baseUrlFor(d),
      });
      return;
    }
    const side = spec[d.status];
    if (!side.url) throw new DeliveryError('Empty webhook URL', true);
    await sendSide(side, d);
  },
};
