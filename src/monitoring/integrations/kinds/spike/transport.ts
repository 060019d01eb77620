// Spike.sh's webhook, as Healthchecks posts to it: the check's unique key, a title and message
// (spike_title.html, spike_description.html, the name unescaped) and the new status.
import { nameThenCode } from '../shared/text.ts';
import { agoAtEvent, postJson, reasonSuffix, uniqueKeyOf } from '../shared/incident.ts';
import type { Delivery, Transport } from '../shared/transport.ts';

export function spikeTitle(d: Delivery): string {
  return `${nameThenCode(d.check)} is ${d.status.toUpperCase()}${reasonSuffix(d)}`;
}

export async function spikeMessage(d: Delivery): Promise<string> {
  const lead = `${spikeTitle(d)}.`;
  const ping = d.status === 'down' ? await d.lastPing() : null;
  return ping ? `${lead}\n\nLast ping was ${agoAtEvent(d, ping.createdAt)}.` : lead;
}

export const spikeTransport: Transport = {
  async send(d) {
    await postJson(d, {
      url: d.channel.value,
      body: { check_id: uniqueKeyOf(d), title: spikeTitle(d), message: await spikeMessage(d), status: d.status },
    });
  },
};
