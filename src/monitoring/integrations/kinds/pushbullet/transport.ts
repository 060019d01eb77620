// Pushbullet's pushes API, as Healthchecks calls it: a "note" titled with the site's name,
// the channel's access token in the Access-Token header. Failures are retried.
import { postJson } from '../shared/incident.ts';
import type { Transport } from '../shared/transport.ts';
import { pushbulletBody } from './message.ts';

export const PUSHBULLET_URL = 'https://api.pushbullet.com/v2/pushes';

export const pushbulletTransport: Transport = {
  async send(d) {
    await postJson(d, {
      url: PUSHBULLET_URL,
      headers: { 'Access-Token': d.channel.value },
      body: { type: 'note', title: d.settings.siteName, body: await pushbulletBody(d) },
    });
  },
};
