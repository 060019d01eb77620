// Healthchecks' Zulip transport: a form-encoded POST to <site>/api/v1/messages with the bot's
// email and API key as Basic auth; the text after zulip_topic.html and zulip_content.html.
// Any refusal is retried, worded with Zulip's "msg" when the answer has one.
import { httpAttempt, baseUrlFor } from '../shared/http.ts';
import { checkPageUrl, djangoEscape, reasonSuffix } from '../shared/incident.ts';
import { nameThenCode } from '../shared/text.ts';
import type { Delivery, Transport } from '../shared/transport.ts';
import { durationForSentence } from '../ntfy/message.ts';
import { formattedTo, zulipConf } from './config.ts';

/** zulip_topic.html: the name is printed |safe. */
export function zulipTopic(d: Delivery): string {
  return `${nameThenCode(d.check)} is ${d.status.toUpperCase()}`;
}

/** zulip_content.html, stripped as Healthchecks' tmpl() strips it. */
export async function zulipContent(d: Delivery): Promise<string> {
  const name = djangoEscape(nameThenCode(d.check));
  const since = d.status === 'up' ? await d.downSince() : null;
  const downtime = since ? `The downtime lasted ${durationForSentence(d.at.getTime() - since.getTime())}.` : '';
  const desc = d.check.desc ? `\n---\n**Description**\n${djangoEscape(d.check.desc)}\n` : '';
  return `[${name}](${checkPageUrl(d)}) is **${d.status.toUpperCase()}**${reasonSuffix(d)}.\n${downtime}\n\n${desc}`.trim();
}

/** "Received status code 400 with a message: "…"" (Zulip's JSON error), as Healthchecks words it. */
export function zulipFailure(status: number, body: string): string {
  let message = `Received status code ${status}`;
  try {
    const doc = JSON.parse(body) as { msg?: unknown };
    if (typeof doc.msg === 'string') message += ` with a message: "${doc.msg}"`;
  } catch {
    // Not JSON: the status says it all.
  }
  return message;
}

export const zulipTransport: Transport = {
  async send(d) {
    const conf = zulipConf(d.channel.value);
    const form = new URLSearchParams({ type: conf.mtype, to: formattedTo(conf), topic: conf.topic || zulipTopic(d), content: await zulipContent(d) });
    await httpAttempt({
      method: 'POST',
      url: `${conf.site.replace(/\/+$/, '')}/api/v1/messages`,
      headers: { Authorization: `Basic ${Buffer.from(`${conf.botEmail}:${conf.apiKey}`).toString('base64')}` },
      body: form,
      timeoutMs: d.settings.timeoutMs,
      idempotencyKey: d.id,
      allowPrivateIps: d.settings.allowPrivateIps,
      baseUrl: baseUrlFor(d),
      failure: zulipFailure,
    });
  },
};
