// PagerDuty's Events API v2 (POST /v2/enqueue): a trigger when the check goes down, a resolve
// when it comes back, both deduplicated by the check's unique key (Healthchecks' incident_key;
// never the UUID, which is the ping secret). Healthchecks still posts the same facts to the v1
// endpoint; v2 takes the same integration key. No answer is permanent, as in Healthchecks.
import { checkPageUrl, postJson, uniqueKeyOf } from '../shared/incident.ts';
import type { Transport } from '../shared/transport.ts';
import { pdConf } from './config.ts';
import { pdSummary, pdDetails } from './message.ts';

export const PAGERDUTY_EVENTS_URL = 'https://events.pagerduty.com/v2/enqueue';

export const pagerDutyTransport: Transport = {
  async send(d) {
    const { serviceKey } = pdConf(d.channel.value);
    const common = { routing_key: serviceKey, dedup_key: uniqueKeyOf(d) };
    const body =
      d.status === 'down'
        ? {
            ...common,
            event_action: 'trigger',
            payload: { summary: pdSummary(d), source: d.settings.siteName, severity: 'critical', custom_details: await pdDetails(d) },
            client: d.settings.siteName,
            client_url: checkPageUrl(d),
          }
        : // A resolve names the alert; v2 ignores anything else in it.
          { ...common, event_action: 'resolve' };
    await postJson(d, { url: PAGERDUTY_EVENTS_URL, body });
  },
};
