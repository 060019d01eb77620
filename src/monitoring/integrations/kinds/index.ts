// The channel kinds: one folder each (its validation, configuration, transport and message
// texts), listed here once. This list is the only place that names them all: the API's enum, the
// CLI's help, validation and the notifier read it. A new kind is a folder and one line here.
import type { NotifySettings } from '../../notifications/settings.ts';
import type { ChannelKindDefinition } from './definition.ts';
import { DeliveryError, type Delivery, type Transport } from './shared/transport.ts';
import { email } from './email/index.ts';
import { webhook } from './webhook/index.ts';
import { sms } from './sms/index.ts';
import { slack } from './slack/index.ts';
import { mattermost } from './mattermost/index.ts';
import { rocketchat } from './rocketchat/index.ts';
import { discord } from './discord/index.ts';

/** In the order the API lists them ("kind must be one of email, webhook, …"). */
export const CHANNEL_KIND_DEFINITIONS = [email, webhook, sms, slack, mattermost, rocketchat, discord] as const;

export type ChannelKind = (typeof CHANNEL_KIND_DEFINITIONS)[number]['kind'];
export const CHANNEL_KINDS: readonly ChannelKind[] = CHANNEL_KIND_DEFINITIONS.map((d) => d.kind);

const byKind = new Map<string, ChannelKindDefinition>(CHANNEL_KIND_DEFINITIONS.map((d) => [d.kind, d]));

/** The definition of a kind; undefined for a name that is none (an old row, a typo). */
export function channelKind(kind: string): ChannelKindDefinition | undefined {
  return byKind.get(kind);
}

const loaded = new Map<string, Transport>();

/**
 * The transport for a delivery's channel, refusing for good a kind that is unknown or that the
 * operator switched off (WEBHOOKS_ENABLED, SLACK_ENABLED… as Healthchecks words it).
 */
export async function transportFor(delivery: Delivery): Promise<Transport> {
  const definition = channelKind(delivery.channel.kind);
  if (!definition) throw new DeliveryError(`Unknown channel kind: ${delivery.channel.kind}`, true);
  if (definition.enabled && !definition.enabled(delivery.settings)) throw new DeliveryError(`${definition.label} notifications are not enabled.`, true);
  // Loaded once per process (loadTransports runs before the first claim): no import per delivery.
  const known = loaded.get(definition.kind);
  if (known) return known;
  const transport = await definition.transport();
  loaded.set(definition.kind, transport);
  return transport;
}

let loadingAll: Promise<void> | undefined;

/**
 * Loads every kind's transport, once per process. The notifier awaits it before it claims work:
 * the first load of nodemailer or the HTTP client takes a moment, and a claim's lease must not
 * run out meanwhile (the notification would be claimed and sent twice).
 */
export function loadTransports(): Promise<void> {
  loadingAll ??= Promise.all(
    CHANNEL_KIND_DEFINITIONS.map(async (d) => {
      loaded.set(d.kind, await d.transport());
    }),
  ).then(
    () => undefined,
    (err: unknown) => {
      loadingAll = undefined;
      throw err;
    },
  );
  return loadingAll;
}

/** Releases what the transports used in this process hold (pooled SMTP connections): shutdown. */
export function closeTransports(settings: NotifySettings): void {
  for (const transport of loaded.values()) transport.close?.(settings);
}
