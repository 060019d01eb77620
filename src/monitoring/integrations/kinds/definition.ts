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

/**
 * A typed configuration for a kind whose value packs several fields (ntfy's JSON, Pushover's
 * "key|prio|prio_up"): GraphQL shows it as `Channel.config` and takes it as `config`. The stored
 * value stays Healthchecks' own; these only translate, validateValue still judges the result.
 */
export interface ChannelConfigHooks<C extends object = object, I extends object = C> {
  /** The configuration a stored (valid) value holds; throws Healthchecks' message for a malformed one. */
  read(value: string): C;
  /**
   * The value Healthchecks' form stores for a configuration (`I`: C with the form's optional
   * fields optional), byte for byte: its key order, its json.dumps.
   */
  value(config: I): string;
}

export interface ChannelKindDefinition<K extends string = string> {
  /** The stored and API name, as Healthchecks spells it. */
  readonly kind: K;
  /**
   * Healthchecks' code where it differs from our name (PagerDuty's "pd"): the REST API lists the
   * kind under it, and --kind, createChannel and the importer take it as well as the name.
   */
  readonly hcKind?: string;
  /** false: the kind does not speak HTTP (email: SMTP), so INTEGRATION_BASE_URLS cannot name it. */
  readonly overHttp?: false;
  /** How messages name the service ("Slack notifications are not enabled."). */
  readonly label: string;
  /**
   * Refuses a malformed configured value (address, phone number, URL) with Healthchecks'
   * message. Empty and over-long values are refused before, for every kind alike.
   */
  validateValue(value: string): void;
  /** A structured configuration besides the bare value; left out: the value is all there is. */
  readonly spec?: ChannelSpecHooks;
  /** The typed configuration (ChannelConfigHooks); left out: the value is a single field (address, URL, key). */
  // `value` is method-style in ChannelConfigHooks, so each kind's own config type is accepted here.
  readonly config?: ChannelConfigHooks;
  /**
   * The statuses a (valid) value can send, as Healthchecks' is_noop judges it (ntfy: a priority
   * of 0 for a status sends nothing for it); left out: both.
   */
  notifies?(value: string): Notifies;
  /**
   * The value is a person's address that may not be the creator's (email): a new channel waits
   * for its recipient's consent through an emailed link, and its messages carry an unsubscribe
   * link (integrations/consent.ts, Healthchecks' email_verified).
   */
  readonly confirmsRecipient?: true;
  /** The operator's switch (e.g. SLACK_ENABLED); left out: always on. */
  enabled?(settings: NotifySettings): boolean;
  /**
   * The setting(s) that turn the kind on, as the refusal names them ("TELEGRAM_TOKEN is not
   * set"); left out, the refusal says only that the kind is not enabled.
   */
  readonly requires?: string;
  /**
   * A channel that stands for others (Healthchecks' group): the codes of its members, read from
   * the stored value. Alerts are queued for the members instead, one each (notifications/
   * recipients.ts); left out, the channel is sent to itself.
   */
  members?(value: string): string[];
  /**
   * What a value must satisfy among the project's other channels (a group's members exist there);
   * `self` is the channel being updated (null: being created). Throws Healthchecks' message.
   */
  validateInProject?(value: string, project: ProjectChannels): void;
  /**
   * Loads the kind's transport on first use: processes that only validate channels (the CLI,
   * most of the API) do not load nodemailer or the HTTP client.
   */
  transport(): Promise<Transport>;
}

/** The project's channels, as validateInProject sees them. */
export interface ProjectChannels {
  channels: ReadonlyArray<{ code: string; kind: string }>;
  self: string | null;
}

/** Keeps the literal `kind` (the registry's ChannelKind type is the union of them). */
export function defineChannelKind<K extends string>(definition: ChannelKindDefinition<K>): ChannelKindDefinition<K> {
  return definition;
}
