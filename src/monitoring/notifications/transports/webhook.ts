// Webhooks as Healthchecks sends them (hc/integrations/webhook/transport.py): the spec's side for
// the new status, placeholders replaced, URL values URL-encoded, header values Latin-1, a body
// only for POST and PUT. A channel whose value is a bare URL posts our JSON document instead.
import { webhookSpecFromValue, type WebhookSide } from '../../integrations/webhook-spec.ts';
import { httpAttempt } from './http.ts';
import { isoNow, latin1, pythonJson, pythonJsonString, pythonQuote, replacePlaceholders } from './placeholders.ts';
import { pingBodyText, tagList } from './text.ts';
import { DeliveryError, type Delivery, type Transport } from './transport.ts';

interface PrepareOptions {
  urlencode?: boolean;
  latin1?: boolean;
  allowPingBody?: boolean;
}

export async function prepare(template: string, d: Delivery, o: PrepareOptions = {}): Promise<string> {
  const safe = (s: string) => (o.urlencode ? pythonQuote(s) : s);
  const check = d.check;
  // Insertion order matters: replacePlaceholders takes the first that matches.
  const ctx = new Map<string, string>([
    ['$CODE', check.code],
    ['$STATUS', d.status],
    ['$NOW', safe(isoNow(d.at))],
    ['$NAME_JSON', safe(pythonJsonString(check.name))],
    ['$NAME', safe(check.name)],
    ['$SLUG', check.slug],
    ['$TAGS', safe(check.tags)],
    ['$JSON', safe(pythonJson(d.checkJson()))],
  ]);
  if (o.allowPingBody && template.includes('$BODY')) {
    const body = pingBodyText(await d.lastPing()) ?? '';
    ctx.set('$BODY_JSON', pythonJsonString(body));
    ctx.set('$BODY', body);
  }
  if (template.includes('$EXITSTATUS')) {
    const ping = await d.lastPing();
    ctx.set('$EXITSTATUS', ping?.exitStatus != null ? String(ping.exitStatus) : '-1');
  }
  tagList(check.tags).forEach((tag, i) => ctx.set(`$TAG${i + 1}`, safe(tag)));
  const result = replacePlaceholders(template, ctx);
  return o.latin1 ? latin1(result) : result;
}

async function sendSide(side: WebhookSide, d: Delivery) {
  const url = await prepare(side.url, d, { urlencode: true });
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(side.headers)) headers[key] = await prepare(value, d, { latin1: true });
  let body: string | undefined;
  if (side.body && (side.method === 'POST' || side.method === 'PUT')) body = await prepare(side.body, d, { allowPingBody: true });
  await httpAttempt({ method: side.method, url, headers, body, timeoutMs: d.settings.timeoutMs, idempotencyKey: d.id, allowPrivateIps: d.settings.allowPrivateIps });
}

/** What a bare-URL channel posts: the check as the API describes it, and what happened. */
export function defaultDocument(d: Delivery): Record<string, unknown> {
  return {
    id: d.id,
    event: d.reason === 'nag' ? 'reminder' : d.reason,
    status: d.status,
    timestamp: isoNow(d.at),
    check: d.checkJson(),
    flip: d.flip && { old_status: d.flip.oldStatus, new_status: d.flip.newStatus, reason: d.flip.reason, timestamp: isoNow(d.at) },
  };
}

export const webhookTransport: Transport = {
  async send(d) {
    if (!d.settings.webhooksEnabled) throw new DeliveryError('Webhook notifications are not enabled.', true);
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
      });
      return;
    }
    const side = spec[d.status];
    if (!side.url) throw new DeliveryError('Empty webhook URL', true);
    await sendSide(side, d);
  },
};
