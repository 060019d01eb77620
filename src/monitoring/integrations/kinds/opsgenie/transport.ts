// Opsgenie's Alert API, as Healthchecks calls it: a down alert creates an alert whose alias is
// the check's unique key; an up alert closes it by that alias. The EU region has its own host.
// An error answer's JSON "message" is quoted in the error (Healthchecks' raise_for_response).
import { postJson, uniqueKeyOf } from '../shared/incident.ts';
import type { Transport } from '../shared/transport.ts';
import { opsgenieConf, type OpsgenieConf } from './config.ts';
import { opsgenieAlert } from './message.ts';

export const OPSGENIE_URLS = { us: 'https://api.opsgenie.com/v2/alerts', eu: 'https://api.eu.opsgenie.com/v2/alerts' } as const;

/** "Received status code 403 with a message: "Nice try"" when the answer says why. */
export function opsgenieFailure(status: number, body: string): string {
  let message: unknown;
  try {
    message = (JSON.parse(body) as { message?: unknown } | null)?.message;
  } catch {
    message = undefined;
  }
  return typeof message === 'string' ? `Received status code ${status} with a message: "${message}"` : `Received status code ${status}`;
}

/** Where an alert goes: the region's alerts, or (up) the close action of the alert with this alias. */
export function opsgenieUrl(conf: OpsgenieConf, status: 'down' | 'up', alias: string): string {
  const alerts = OPSGENIE_URLS[conf.region];
  return status === 'down' ? alerts : `${alerts}/${alias}/close?identifierType=alias`;
}

export const opsgenieTransport: Transport = {
  async send(d) {
    const conf = opsgenieConf(d.channel.value);
    const alias = uniqueKeyOf(d);
    const body = { alias, source: d.settings.siteName, ...(d.status === 'down' ? await opsgenieAlert(d) : {}) };
    await postJson(d, { url: opsgenieUrl(conf, d.status, alias), body, headers: { Authorization: `GenieKey ${conf.key}` }, failure: opsgenieFailure });
  },
};
