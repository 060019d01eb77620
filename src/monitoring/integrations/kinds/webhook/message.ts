// What a webhook sends, as Healthchecks fills it (hc/integrations/webhook/transport.py): the
// spec's templates with placeholders replaced, or, for a bare-URL channel, our JSON document.
import { isoNow, latin1, pythonJson, pythonJsonString, pythonQuote, replacePlaceholders } from './placeholders.ts';
import { pingBodyText, tagList } from '../shared/text.ts';
import type { Delivery } from '../shared/transport.ts';

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
