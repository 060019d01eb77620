// The Adaptive Card Healthchecks' MsTeamsWorkflow posts to the workflow URL: a heading after
// msteamsw_message.html, the check's facts as a FactSet, the last ping's body as a code block
// and a link to the check. Any refusal is retried, as Healthchecks does.
import { chatTransport } from '../shared/chat.ts';
import { checkPageUrl, djangoEscape, kindAndWhen, reasonSuffix } from '../shared/incident.ts';
import { formatDuration, nameThenCode, pingBodyText, tagList } from '../shared/text.ts';
import type { Delivery } from '../shared/transport.ts';

/** Asterisks escaped so that Teams does not read a cron schedule as Markdown. */
const fixAsterisks = (s: string) => s.replaceAll('*', '\u034f*');

/** msteamsw_message.html (autoescaped). */
export function msteamsHeading(d: Delivery): string {
  const name = djangoEscape(nameThenCode(d.check));
  return d.status === 'down' ? `🔴 “${name}” is DOWN${reasonSuffix(d)}.` : `🟢 “${name}” is UP.`;
}

export async function msteamsPayload(d: Delivery): Promise<Record<string, unknown>> {
  const check = d.check;
  const facts: Array<{ title: string; value: string }> = [];
  const add = (title: string, value: string) => facts.push({ title, value });
  if (check.desc) add('Description:', check.desc.replaceAll('\n', '\n\n'));
  if (check.project.name) add('Project:', check.project.name);
  const tags = tagList(check.tags);
  if (tags.length) add('Tags:', tags.join(' '));
  if (check.kind === 'simple') add('Period:', formatDuration(check.timeout));
  else {
    add('Schedule:', fixAsterisks(check.schedule));
    add('Time Zone:', check.tz);
  }
  const ping = await d.lastPing();
  add('Total Pings:', String(ping?.n ?? 0));
  add('Last Ping:', ping ? kindAndWhen(d, ping) : 'Never');
  const blocks: unknown[] = [
    { type: 'TextBlock', text: msteamsHeading(d), weight: 'bolder', size: 'medium', wrap: true, style: 'heading' },
    { type: 'FactSet', facts },
  ];
  const body = pingBodyText(ping, 1000);
  if (body) {
    blocks.push({ type: 'TextBlock', text: 'Last Ping Body:', weight: 'bolder' });
    blocks.push({ type: 'CodeBlock', codeSnippet: body, language: 'PlainText' });
  }
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          fallbackText: `“${djangoEscape(nameThenCode(check))}” is ${d.status.toUpperCase()}.`,
          version: '1.2',
          body: blocks,
          actions: [{ type: 'Action.OpenUrl', title: `View in ${d.settings.siteName}`, url: checkPageUrl(d) }],
        },
      },
    ],
  };
}

export const msteamsTransport = chatTransport({ payload: msteamsPayload });
