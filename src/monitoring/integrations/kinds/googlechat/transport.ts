// The card Healthchecks' GoogleChat transport posts to the webhook URL (cardsV2): a paragraph
// after googlechat_message.html, the check's facts as decorated texts and a button to the check.
// Any refusal is retried, as Healthchecks does.
import { chatTransport } from '../shared/chat.ts';
import { checkPageUrl, djangoEscape, kindAndWhen, reasonLong, reasonOf } from '../shared/incident.ts';
import { formatDuration, nameThenCode, tagList } from '../shared/text.ts';
import type { Delivery } from '../shared/transport.ts';
import { durationForSentence } from '../ntfy/message.ts';

/** googlechat_message.html (autoescaped; linemode joins the lines with "\n"). */
export async function googlechatText(d: Delivery): Promise<string> {
  const name = djangoEscape(nameThenCode(d.check));
  if (d.status === 'down') {
    const reason = reasonLong(reasonOf(d));
    return [`🔴 The check <b>${name}</b> is <b>DOWN</b>.`, ...(reason ? [`Reason: ${reason}.`] : [])].join('\n');
  }
  const since = await d.downSince();
  const lines = [`🟢 The check <b>${name}</b> is now <b>UP</b>.`];
  if (since) lines.push(`The downtime lasted ${durationForSentence(d.at.getTime() - since.getTime())}.`);
  return lines.join('\n');
}

export async function googlechatPayload(d: Delivery): Promise<Record<string, unknown>> {
  const check = d.check;
  const widgets: unknown[] = [{ textParagraph: { text: await googlechatText(d) } }];
  const add = (topLabel: string, text: string) => widgets.push({ decoratedText: { topLabel, text } });
  if (check.project.name) add('Project', check.project.name);
  const tags = tagList(check.tags);
  if (tags.length) add('Tags', tags.join(', '));
  if (check.kind === 'simple') add('Period', formatDuration(check.timeout));
  else {
    add('Schedule', check.schedule);
    add('Time Zone', check.tz);
  }
  const ping = await d.lastPing();
  add('Total Pings', String(ping?.n ?? 0));
  add('Last Ping', ping ? kindAndWhen(d, ping) : 'Never');
  widgets.push({
    buttonList: { buttons: [{ text: `View in ${d.settings.siteName}`, type: 'FILLED', onClick: { openLink: { url: checkPageUrl(d) } } }] },
  });
  return { cardsV2: [{ card: { sections: { collapsible: true, uncollapsibleWidgetsCount: 1, widgets } } }] };
}

export const googlechatTransport = chatTransport({ payload: googlechatPayload });
