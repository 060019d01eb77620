// PagerTree's webhook, as Healthchecks posts to it: a trigger when the check goes down, a
// resolve when it comes back, one incident per check (incident_key: its unique key).
import { nameThenCode, tagList } from '../shared/text.ts';
import { agoAtEvent, djangoEscape, postJson, reasonSuffix, uniqueKeyOf } from '../shared/incident.ts';
import type { Delivery, Transport } from '../shared/transport.ts';

/** pagertree_title.html (the name unescaped). */
export function pagerTreeTitle(d: Delivery): string {
  return `${nameThenCode(d.check)} is ${d.status.toUpperCase()}${reasonSuffix(d)}`;
}

/** pagertree_description.html: the name escaped (Django's autoescape), the last ping's age when down. */
export async function pagerTreeDescription(d: Delivery): Promise<string> {
  const lead = `${djangoEscape(nameThenCode(d.check))} is ${d.status.toUpperCase()}${reasonSuffix(d)}.`;
  const ping = d.status === 'down' ? await d.lastPing() : null;
  return ping ? `${lead}\n\nLast ping was ${agoAtEvent(d, ping.createdAt)}.` : lead;
}

export const pagerTreeTransport: Transport = {
  async send(d) {
    await postJson(d, {
      url: d.channel.value,
      body: {
        incident_key: uniqueKeyOf(d),
        event_type: d.status === 'down' ? 'trigger' : 'resolve',
        title: pagerTreeTitle(d),
        description: await pagerTreeDescription(d),
        client: d.settings.siteName,
        client_url: d.settings.siteRoot,
        tags: tagList(d.check.tags).join(' '),
      },
    });
  },
};
