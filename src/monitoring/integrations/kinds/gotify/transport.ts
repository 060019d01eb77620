// Gotify's message API, as Healthchecks calls it: a JSON POST to <server>/message?token=<app
// token> with the title, the Markdown message (marked as such for Gotify's clients) and the
// status's priority when the value has one. The server is the user's own URL: private
// addresses are refused unless INTEGRATIONS_ALLOW_PRIVATE_IPS. Failures are retried.
import { postJson } from '../shared/incident.ts';
import { DeliveryError, type Transport } from '../shared/transport.ts';
import { gotifyConf, type GotifyConf } from './config.ts';
import { gotifyMessage, gotifyTitle } from './message.ts';

/** Healthchecks' urljoin(base + "/", "message") with the token as the query. */
export function gotifyUrl(conf: GotifyConf): string {
  const base = conf.url.endsWith('/') ? conf.url : `${conf.url}/`;
  const url = new URL('message', base);
  url.search = new URLSearchParams({ token: conf.token }).toString();
  return url.toString();
}

export const gotifyTransport: Transport = {
  async send(d) {
    const conf = gotifyConf(d.channel.value);
    const priority = d.status === 'up' ? conf.priorityUp : conf.priority;
    if (priority === 0) throw new DeliveryError(`Gotify notifications for ${d.status} are disabled (priority 0)`, true);
    const body: Record<string, unknown> = {
      title: gotifyTitle(d),
      message: await gotifyMessage(d),
      extras: { 'client::display': { contentType: 'text/markdown' } },
    };
    if (priority !== null) body.priority = priority;
    await postJson(d, { url: gotifyUrl(conf), body });
  },
};
