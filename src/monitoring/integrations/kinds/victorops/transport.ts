// Splunk On-Call's REST endpoint, as Healthchecks posts to it: CRITICAL when the check goes
// down, RECOVERY when it comes back, one incident per check (entity_id: its unique key). A 404
// means the endpoint is gone for good (Healthchecks: permanent, and the channel is disabled).
import { nameThenCode } from '../shared/text.ts';
import { postJson, reasonSuffix, uniqueKeyOf } from '../shared/incident.ts';
import type { Delivery, Transport } from '../shared/transport.ts';

/** victorops_description.html (the name unescaped). */
export function victorOpsStateMessage(d: Delivery): string {
  const name = nameThenCode(d.check);
  return d.status === 'down' ? `${name} is DOWN${reasonSuffix(d)}.` : `${name} is UP.`;
}

export const victorOpsTransport: Transport = {
  async send(d) {
    await postJson(d, {
      url: d.channel.value,
      body: {
        entity_id: uniqueKeyOf(d),
        message_type: d.status === 'down' ? 'CRITICAL' : 'RECOVERY',
        entity_display_name: nameThenCode(d.check),
        state_message: victorOpsStateMessage(d),
        monitoring_tool: d.settings.siteName,
      },
      permanentStatuses: [404],
    });
  },
};
