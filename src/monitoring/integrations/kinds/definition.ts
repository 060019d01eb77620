// What a channel kind is: one folder under kinds/ exports one of these from its index.ts, and
// kinds/index.ts lists them. Code outside the folders asks the definition (validation, the
// webhook-style spec, the operator's switch, the transport) and never names a kind.
import type { NotifySettings } from '../../notifications/settings.ts';
import type { Transport } from './shared/transport.ts';
import type { WebhookSpec, WebhookSpecInput } from './webhook/spec.ts';

/** The statuses a configuration can send at all (a webhook spec's side without a URL cannot). */
export interface Notifies {
  down: boolean;
  up: boolean;
}

/**
 * A structured configuration the APIs take instead of a bare value (`ChannelInput.webhook`,
 * GraphQL's `webhook`, the CLI's --url-down/--url-up…). Its input shape is Healthchecks' webhook
 * spec, the only one there is.
 */
export interface ChannelSpecHooks {
  /** Validates the input (Healthchecks' messages) and returns the value to store and what it can send. */
  store(input: WebhookSpecInput): { value: string; notifies: Notifies };
  /** The spec a stored value holds; null when the value is a bare one. */
  read(value: string): WebhookSpec | null;
  /** The statuses a stored value can send (a bare value: both). */
  notifies(value: string): Notifies;
  /**
   * The stored spec with the given fields of the given sides changed, for updates that name only
   * what changes (the CLI's `channel update`); GraphQL's updateChannel replaces the spec whole.
   */
  patch(value: string, input: WebhookSpecInput): WebhookSpecInput;
}

export interface ChannelKindDefinition<K extends string = string> {
  /** The stored and API name, as Healthchecks spells it. */
  readonly kind: K;
  /** How messages name the service ("Slack notifications are not enabled."). */
  readonly label: string;
  /**
   * Refuses a malformed configured value (address, phone number, URL) with Healthchecks'
   * message. Empty and over-long values are refused before, for every kind alike.
   */
  validateValue(value: string): void;
  /** A structured configuration besides the bare value; left out: the value is all there is. */
  readonly spec?: ChannelSpecHooks;
  /** The operator's switch (e.g. SLACK_ENABLED); left out: always on. */
  enabled?(settings: NotifySettings): boolean;
  /**
   * Loads the kind's transport on first use: processes that only validate channels (the CLI,
   * most of the API) do not load nodemailer or the HTTP client.
   */
  transport(): Promise<Transport>;
}

/** Keeps the literal `kind` (the registry's ChannelKind type is the union of them). */
export function defineChannelKind<K extends string>(definition: ChannelKindDefinition<K>): ChannelKindDefinition<K> {
  return definition;
}
