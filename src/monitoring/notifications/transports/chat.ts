// Chat services with incoming webhooks. Slack and Mattermost take Slack's attachment payload,
// Discord takes the same at "<webhook>/slack" (as Healthchecks posts to it), Rocket.Chat its own
// shape. The payloads follow Healthchecks' Slackalike and RocketChat transports.
import { httpAttempt } from './http.ts';
import { checkUrl, describePing, formatDuration, nameThenCode, pingBodyText, tagList } from './text.ts';
import { DeliveryError, type Delivery, type Transport } from './transport.ts';

type Field = { title: string; value: string; short?: boolean };

async function fields(d: Delivery, withBody: boolean): Promise<Field[]> {
  const check = d.check;
  const out: Field[] = [];
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
        fields: await fields(d, true),
      },
    ],
  };
}

export async function rocketChatPayload(d: Delivery): Promise<Record<string, unknown>> {
  return {
    alias: d.settings.siteName,
    text: `[${nameThenCode(d.check)}](${checkUrl(d.settings.siteRoot, d.check)}) is ${d.status.toUpperCase()}.`,
    attachments: [{ color: d.status === 'up' ? '#5cb85c' : '#d9534f', fields: await fields(d, false) }],
  };
}

function chatTransport(
  label: string,
  enabled: (d: Delivery) => boolean,
  payload: (d: Delivery) => Promise<Record<string, unknown>>,
  url: (d: Delivery) => string = (d) => d.channel.value,
  permanentStatuses: number[] = [],
): Transport {
  return {
    async send(d) {
      if (!enabled(d)) throw new DeliveryError(`${label} notifications are not enabled.`, true);
      await httpAttempt({
        method: 'POST',
        url: url(d),
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(await payload(d)),
        timeoutMs: d.settings.timeoutMs,
        idempotencyKey: d.id,
        permanentStatuses,
        allowPrivateIps: d.settings.allowPrivateIps,
      });
    },
  };
}

// Slack and Discord answer 404 for a removed hook: it will not come back (Healthchecks agrees).
export const slackTransport = chatTransport('Slack', (d) => d.settings.slackEnabled, slackPayload, undefined, [404]);
export const mattermostTransport = chatTransport('Mattermost', (d) => d.settings.mattermostEnabled, slackPayload);
export const rocketChatTransport = chatTransport('Rocket.Chat', (d) => d.settings.rocketchatEnabled, rocketChatPayload);
export const discordTransport = chatTransport(
  'Discord',
  (d) => d.settings.discordEnabled,
  slackPayload,
  (d) => `${d.channel.value.replace(/\/+$/, '')}/slack`,
  [404],
);
