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
import { pagerduty } from './pagerduty/index.ts';
import { opsgenie } from './opsgenie/index.ts';
import { victorops } from './victorops/index.ts';
import { pagertree } from './pagertree/index.ts';
import { spike } from './spike/index.ts';
import { ntfy } from './ntfy/index.ts';
import { pushover } from './pushover/index.ts';
import { pushbullet } from './pushbullet/index.ts';
import { gotify } from './gotify/index.ts';
import { msteams } from './msteams/index.ts';
import { googlechat } from './googlechat/index.ts';
import { zulip } from './zulip/index.ts';
import { telegram } from './telegram/index.ts';
import { whatsapp } from './whatsapp/index.ts';
import { call } from './call/index.ts';
import { matrix } from './matrix/index.ts';
import { signal } from './signal/index.ts';
import { apprise } from './apprise/index.ts';
import { shell } from './shell/index.ts';
import { group } from './group/index.ts';
import { github } from './github/index.ts';
import { trello } from './trello/index.ts';

/** In the order the API lists them ("kind must be one of email, webhook, …"). */
export const CHANNEL_KIND_DEFINITIONS = [email, webhook, sms, slack, mattermost, rocketchat, discord, pagerduty, opsgenie, victorops, pagertree, spike, ntfy, pushover, pushbullet, gotify, msteams, googlechat, zulip, telegram, whatsapp, call, matrix, signal, apprise, shell, group, github, trello] as const;

export type ChannelKind = (typeof CHANNEL_KIND_DEFINITIONS)[number]['kind'];
export const CHANNEL_KINDS: readonly ChannelKind[] = CHANNEL_KIND_DEFINITIONS.map((d) => d.kind);

/** Healthchecks' codes that differ from our names ("pd"), each taken for its kind. */
export const HC_KIND_CODES: readonly string[] = CHANNEL_KIND_DEFINITIONS.flatMap((d: ChannelKindDefinition) => (d.hcKind ? [d.hcKind] : []));

const byKind = new Map<string, ChannelKindDefinition>(CHANNEL_KIND_DEFINITIONS.flatMap((d: ChannelKindDefinition) => [[d.kind, d] as const, ...(d.hcKind ? [[d.hcKind, d] as const] : [])]));

/** The definition of a kind, by our name or Healthchecks' code; undefined for a name that is none (an old row, a typo). */
export function channelKind(kind: string): ChannelKindDefinition | undefined {
  return byKind.get(kind);
}

/** The kind as Healthchecks names it (the REST API's `kind`): its code where it has one of its own. */
export function hcKindOf(kind: string): string {
  return channelKind(kind)?.hcKind ?? kind;
}

/**
 * Why a channel of a kind that is off cannot be created: Healthchecks' sentence (the one a
 * delivery fails with) and, for the operator, the setting that turns the kind on.
 */
export function notEnabledMessage(definition: ChannelKindDefinition): string {
  const sentence = `${definition.label} notifications are not enabled.`;
  return definition.requires ? `${sentence} The server's operator turns them on with ${definition.requires}.` : sentence;
}

/**
 * The kinds this server can send with its settings, in the API's order: the app's form, the
 * `channelKinds` query and channel creation offer only these (Healthchecks hides a kind whose
 * setting is missing the same way).
 */
export function offeredChannelKinds(settings: NotifySettings): ChannelKind[] {
  return CHANNEL_KIND_DEFINITIONS.filter((d: ChannelKindDefinition) => !d.enabled || d.enabled(settings)).map((d) => d.kind);
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
