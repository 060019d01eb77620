// Healthchecks' Trello transport: POST https://api.trello.com/1/cards with the card in the query
// string (idList, name, desc, key, token) and no body; the answer is judged as any HTTP kind's.
import { baseUrlFor, httpAttempt } from '../shared/http.ts';
import { DeliveryError, type Transport } from '../shared/transport.ts';
import { trelloConf } from './config.ts';
import { trelloDesc, trelloName } from './message.ts';

const TRELLO_CARDS = 'https://api.trello.com/1/cards';

export const trelloTransport: Transport = {
  async send(d) {
    const key = d.settings.trelloAppKey;
    if (!key) throw new DeliveryError('Trello notifications are not enabled.', true);
    // Up alerts are not queued (notifies); a reminder or test of "up" has nothing to send either.
    if (d.status !== 'down') return;
    const conf = trelloConf(d.channel.value);
    const params = new URLSearchParams({ idList: conf.listId, name: trelloName(d), desc: await trelloDesc(d), key, token: conf.token });
    await httpAttempt({
      method: 'POST',
      url: `${TRELLO_CARDS}?${params}`,
      timeoutMs: d.settings.timeoutMs,
      idempotencyKey: d.id,
      allowPrivateIps: d.settings.allowPrivateIps,
      baseUrl: baseUrlFor(d),
    });
  },
};
