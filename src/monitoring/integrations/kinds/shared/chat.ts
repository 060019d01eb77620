// What the chat kinds share (slack, mattermost, rocketchat, discord): the facts of an alert as
// attachment fields, Slack's attachment payload (Slack, Mattermost and Discord take it) and a
// transport that posts a payload to the channel's incoming-webhook URL. The payloads follow
// Healthchecks' Slackalike and RocketChat transports.
import { baseUrlFor, httpAttempt } from './http.ts';
import { checkUrl, describePing, formatDuration, nameThenCode, pingBodyText, tagList } from './text.ts';
import type { Delivery, Transport } from './transport.ts';

export type ChatField = { title: string; value: string; short?: boolean };

export async function chatFields(d: Delivery, withBody: boolean): Promise<ChatField[]> {
  const check = d.check;
  const out: ChatField[] = [];
  const add = (title: string, value: string, short = true) => out.push(short ? { title, value, short } : { title, value });
  if (check.desc) add('Description', check.desc, false);
  if (check.project.name) add('Project', check.project.name);
  const tags = tagList(check.tags);
  if (tags.length) add('Tags', tags.map((t) => `\`${t}\``).join(' '));
  if (check.kind === 'simple') add('Period', formatDuration(check.timeout));
  else {
    add('Schedule', check.schedule);
    add('Time Zone', check.tz);
  }
  const ping = await d.lastPing();
  add('Total Pings', String(ping?.n ?? 0));
  add('Last Ping', describePing(ping));
  const body = withBody ? pingBodyText(ping, 1000) : null;
  if (body && !body.includes('```')) add('Last Ping Body', `\`\`\`\n${body}\n\`\`\``, false);
  return out;
}

function headline(d: Delivery): string {
  const name = nameThenCode(d.check);
  return d.reason === 'nag' ? `Reminder: “${name}” is still ${d.status.toUpperCase()}.` : `“${name}” is ${d.status.toUpperCase()}.`;
}

export async function slackPayload(d: Delivery): Promise<Record<string, unknown>> {
  const name = nameThenCode(d.check);
  return {
    username: d.settings.siteName,
    attachments: [
      {
        color: d.status === 'up' ? 'good' : 'danger',
        fallback: `The check "${name}" is ${d.status.toUpperCase()}.`,
        mrkdwn_in: ['fields'],
        title: headline(d),
        title_link: checkUrl(d.settings.siteRoot, d.check),
        fields: await chatFields(d, true),
      },
    ],
  };
}

export interface ChatHook {
  payload(d: Delivery): Promise<Record<string, unknown>>;
  /** Where to post (default: the channel's value, the hook's URL). */
  url?(d: Delivery): string;
  /** Statuses that mean the hook is gone for good (e.g. Slack's 404). */
  permanentStatuses?: number[];
}

/** Posts the hook's payload as JSON; the kind's switch (SLACK_ENABLED…) is checked before. */
export function chatTransport(hook: ChatHook): Transport {
  return {
    async send(d) {
      await httpAttempt({
        method: 'POST',
        url: hook.url ? hook.url(d) : d.channel.value,
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(await hook.payload(d)),
        timeoutMs: d.settings.timeoutMs,
        idempotencyKey: d.id,
        permanentStatuses: hook.permanentStatuses ?? [],
        allowPrivateIps: d.settings.allowPrivateIps,
        baseUrl: baseUrlFor(d),
      });
    },
  };
}
