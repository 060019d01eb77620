// Apprise through an Apprise API server (https://github.com/caronc/apprise-api): Healthchecks
// calls the Python library in its own process, which this server cannot, so it posts the same
// call to the API's stateless endpoint, POST <APPRISE_API_URL>/notify/, with the channel's URLs,
// Healthchecks' title and body, and "failure" or "success" as Healthchecks' notify_type.
//
// The API's answers: 200 sent; 424 one or more services failed (Healthchecks' "Failed",
// retried); 204 none of the URLs is one Apprise knows, which no retry changes; anything else
// "Received status code N", retried (the server may be restarting).
import { baseUrlFor } from '../shared/http.ts';
import { exchange, jsonErrorOf } from '../shared/exchange.ts';
import { DeliveryError, type Transport } from '../shared/transport.ts';
import { appriseBody, appriseTitle } from './message.ts';

export const appriseTransport: Transport = {
  async send(d) {
    const api = d.settings.appriseApiUrl;
    if (!api) throw new DeliveryError('Apprise notifications are not enabled.', true);
    const answer = await exchange({
      method: 'POST',
      url: `${api}/notify/`,
      headers: { Accept: 'application/json' },
      json: { urls: d.channel.value, title: appriseTitle(d), body: await appriseBody(d), type: d.status === 'up' ? 'success' : 'failure', format: 'text' },
      timeoutMs: d.settings.timeoutMs,
      idempotencyKey: d.id,
      // APPRISE_API_URL is the operator's own (usually a sidecar on a private address); a base
      // URL from INTEGRATION_BASE_URLS follows the private-address rule of every kind.
      allowPrivateIps: baseUrlFor(d) === undefined || d.settings.allowPrivateIps,
      baseUrl: baseUrlFor(d),
    });
    if (answer.status === 200) return;
    if (answer.status === 204) throw new DeliveryError('Failed: the Apprise API found no valid Apprise URL in the channel’s value', true);
    const said = jsonErrorOf(answer.body);
    if (answer.status === 424) throw new DeliveryError(said ? `Failed (${said})` : 'Failed', false, answer.retryAfterMs);
    throw new DeliveryError(said ? `Received status code ${answer.status} with a message: "${said}"` : `Received status code ${answer.status}`, false, answer.retryAfterMs);
  },
};
