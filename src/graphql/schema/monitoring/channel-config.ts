// The typed configuration of the kinds whose value packs several fields (ntfy's JSON, Pushover's
// "key|prio|prio_up"…): one output type and one input type per kind, in one table keyed by kind.
// `Channel.config` reads a stored value through the kind's `config.read`; createChannel and
// updateChannel take `config: { <kind>: {…} }` (@oneOf) and store the kind's `config.value` of it,
// so the stored row is the one Healthchecks' form writes and the kind's own validation judges it.
import { builder } from '../builder.ts';
import { validationError } from '../../../shared/errors.ts';
import { channelKind } from '../../../monitoring/integrations/kinds/index.ts';
import type { ChannelKind as Kind } from '../../../monitoring/integrations/service.ts';
import type { PdConf } from '../../../monitoring/integrations/kinds/pagerduty/config.ts';
import type { OpsgenieConf } from '../../../monitoring/integrations/kinds/opsgenie/config.ts';
import type { NtfyConf } from '../../../monitoring/integrations/kinds/ntfy/config.ts';
import type { PushoverConf } from '../../../monitoring/integrations/kinds/pushover/config.ts';
import type { GotifyConf } from '../../../monitoring/integrations/kinds/gotify/config.ts';
import type { ZulipConf } from '../../../monitoring/integrations/kinds/zulip/config.ts';
import type { TelegramChat } from '../../../monitoring/integrations/kinds/telegram/config.ts';
import type { SignalConf } from '../../../monitoring/integrations/kinds/signal/config.ts';
import type { ShellConf } from '../../../monitoring/integrations/kinds/shell/config.ts';
import type { GitHubConf } from '../../../monitoring/integrations/kinds/github/config.ts';
import type { TrelloConf } from '../../../monitoring/integrations/kinds/trello/config.ts';

/** A configuration as `Channel.config` returns it: the kind's own object, tagged with its kind for the union. */
type Tagged<C> = C & { kind: Kind };

const OpsgenieRegion = builder.enumType('OpsgenieRegion', { values: { US: { value: 'us' }, EU: { value: 'eu' } } as const });
const ZulipMessageType = builder.enumType('ZulipMessageType', {
  values: { STREAM: { value: 'stream', description: 'To a stream, under a topic' }, PRIVATE: { value: 'private', description: 'A direct message' } } as const,
});

const PagerDutyConfig = builder.objectRef<Tagged<PdConf>>('PagerDutyConfig').implement({
  fields: (t) => ({
    serviceKey: t.exposeString('serviceKey', { description: 'The integration key (Events API v2’s routing_key)' }),
    account: t.exposeString('account', { nullable: true, description: 'The PagerDuty account of a Simple Install; null for a key entered by hand' }),
  }),
});
const PagerDutyConfigInput = builder.inputType('PagerDutyConfigInput', {
  fields: (t) => ({
    serviceKey: t.string({ required: true }),
    account: t.string({ description: 'Given: stored as Healthchecks’ Simple Install does, {"service_key", "account"}; left out: the bare key' }),
  }),
});

const OpsgenieConfig = builder.objectRef<Tagged<OpsgenieConf>>('OpsgenieConfig').implement({
  fields: (t) => ({ key: t.exposeString('key'), region: t.field({ type: OpsgenieRegion, resolve: (c) => c.region }) }),
});
const OpsgenieConfigInput = builder.inputType('OpsgenieConfigInput', {
  fields: (t) => ({ key: t.string({ required: true }), region: t.field({ type: OpsgenieRegion, required: true }) }),
});

const NTFY_PRIORITY = '1 (min) to 5 (max); 0: nothing is sent for this status';
const NtfyConfig = builder.objectRef<Tagged<NtfyConf>>('NtfyConfig').implement({
  fields: (t) => ({
    url: t.exposeString('url', { description: 'The ntfy server, e.g. https://ntfy.sh' }),
    topic: t.exposeString('topic'),
    priority: t.exposeInt('priority', { description: `Down alerts: ${NTFY_PRIORITY}` }),
    priorityUp: t.exposeInt('priorityUp', { description: `Up alerts: ${NTFY_PRIORITY}` }),
    token: t.exposeString('token', { description: 'The topic’s access token; empty for none' }),
  }),
});
const NtfyConfigInput = builder.inputType('NtfyConfigInput', {
  fields: (t) => ({
    url: t.string({ required: true }),
    topic: t.string({ required: true }),
    priority: t.int({ required: true, description: `Down alerts: ${NTFY_PRIORITY}` }),
    priorityUp: t.int({ required: true, description: `Up alerts: ${NTFY_PRIORITY}` }),
    token: t.string({ description: 'Left out: none' }),
  }),
});

const PUSHOVER_PRIORITY = '-2 (lowest) to 2 (emergency); -3: nothing is sent for this status';
const PushoverConfig = builder.objectRef<Tagged<PushoverConf>>('PushoverConfig').implement({
  fields: (t) => ({
    userKey: t.exposeString('userKey', { description: 'The Pushover user or group key' }),
    priority: t.exposeInt('priority', { description: `Down alerts: ${PUSHOVER_PRIORITY}` }),
    priorityUp: t.exposeInt('priorityUp', { description: `Up alerts: ${PUSHOVER_PRIORITY}` }),
  }),
});
const PushoverConfigInput = builder.inputType('PushoverConfigInput', {
  fields: (t) => ({
    userKey: t.string({ required: true }),
    priority: t.int({ required: true, description: `Down alerts: ${PUSHOVER_PRIORITY}` }),
    priorityUp: t.int({ required: true, description: `Up alerts: ${PUSHOVER_PRIORITY}` }),
  }),
});

const GOTIFY_PRIORITY = '1 to 9 (Healthchecks offers 2, 5 and 9); 0: nothing is sent for this status';
const GotifyConfig = builder.objectRef<Tagged<GotifyConf>>('GotifyConfig').implement({
  fields: (t) => ({
    url: t.exposeString('url', { description: 'The Gotify server; messages go to <url>/message' }),
    token: t.exposeString('token', { description: 'The application token' }),
    priority: t.exposeInt('priority', { nullable: true, description: `Down alerts: ${GOTIFY_PRIORITY}; null: Gotify’s default (a value stored before priorities)` }),
    priorityUp: t.exposeInt('priorityUp', { nullable: true, description: `Up alerts: ${GOTIFY_PRIORITY}; null as for priority` }),
  }),
});
const GotifyConfigInput = builder.inputType('GotifyConfigInput', {
  fields: (t) => ({
    url: t.string({ required: true }),
    token: t.string({ required: true }),
    priority: t.int({ required: true, description: `Down alerts: ${GOTIFY_PRIORITY}` }),
    priorityUp: t.int({ required: true, description: `Up alerts: ${GOTIFY_PRIORITY}` }),
  }),
});

const ZulipConfig = builder.objectRef<Tagged<ZulipConf>>('ZulipConfig').implement({
  fields: (t) => ({
    botEmail: t.exposeString('botEmail'),
    apiKey: t.exposeString('apiKey'),
    site: t.exposeString('site', { description: 'The Zulip server (a value stored without one: the bot email’s domain)' }),
    mtype: t.field({ type: ZulipMessageType, resolve: (c) => c.mtype }),
    to: t.exposeString('to', { description: 'The stream’s name, or the recipient’s email or user id' }),
    topic: t.exposeString('topic', { description: 'Empty: the message’s own ("<check> is DOWN")' }),
  }),
});
const ZulipConfigInput = builder.inputType('ZulipConfigInput', {
  fields: (t) => ({
    botEmail: t.string({ required: true }),
    apiKey: t.string({ required: true }),
    site: t.string({ required: true }),
    mtype: t.field({ type: ZulipMessageType, required: true }),
    to: t.string({ required: true }),
    topic: t.string({ description: 'Left out: the message’s own' }),
  }),
});

// Telegram's chat ids reach 52 bits (supergroups: -100…), past GraphQL's 32-bit Int; Telegram
// itself advises a double. "chatId", not "id": clients' caches take an `id` field as an identity.
const TelegramConfig = builder.objectRef<Tagged<TelegramChat>>('TelegramConfig').implement({
  fields: (t) => ({
    chatId: t.float({ description: 'The chat’s id, a whole number (negative for groups)', resolve: (c) => c.id }),
    type: t.exposeString('type', { nullable: true, description: 'Telegram’s chat type (private, group, supergroup, channel)' }),
    name: t.exposeString('name', { nullable: true, description: 'The chat’s title or the user’s username' }),
    threadId: t.exposeInt('threadId', { nullable: true, description: 'A forum topic’s thread; null: the chat itself' }),
  }),
});
const TelegramConfigInput = builder.inputType('TelegramConfigInput', {
  fields: (t) => ({
    chatId: t.float({ required: true, description: 'The chat’s id, a whole number' }),
    type: t.string(),
    name: t.string(),
    threadId: t.int(),
  }),
});

const SignalConfig = builder.objectRef<Tagged<SignalConf>>('SignalConfig').implement({
  fields: (t) => ({
    recipient: t.exposeString('recipient', { description: 'A phone number (+ and digits) or a Signal username ("name.42")' }),
    down: t.exposeBoolean('down', { description: 'Down alerts are sent' }),
    up: t.exposeBoolean('up', { description: 'Up alerts are sent' }),
  }),
});
const SignalConfigInput = builder.inputType('SignalConfigInput', {
  fields: (t) => ({
    recipient: t.string({ required: true }),
    down: t.boolean({ defaultValue: true }),
    up: t.boolean({ defaultValue: true }),
  }),
});

const ShellConfig = builder.objectRef<Tagged<ShellConf>>('ShellConfig').implement({
  description: 'Commands run on the server (SHELL_ENABLED); an empty one sends nothing for its status',
  fields: (t) => ({ cmdDown: t.exposeString('cmdDown'), cmdUp: t.exposeString('cmdUp') }),
});
const ShellConfigInput = builder.inputType('ShellConfigInput', {
  fields: (t) => ({ cmdDown: t.string({ defaultValue: '' }), cmdUp: t.string({ defaultValue: '' }) }),
});

const GitHubConfig = builder.objectRef<Tagged<GitHubConf>>('GitHubConfig').implement({
  fields: (t) => ({
    installationId: t.exposeInt('installationId', { description: 'The GitHub App installation that opens the issues' }),
    repo: t.exposeString('repo', { description: '"owner/name"' }),
    labels: t.exposeStringList('labels'),
  }),
});
const GitHubConfigInput = builder.inputType('GitHubConfigInput', {
  fields: (t) => ({
    installationId: t.int({ required: true }),
    repo: t.string({ required: true }),
    labels: t.stringList({ description: 'Trimmed, blanks dropped; left out: none' }),
  }),
});

const TrelloConfig = builder.objectRef<Tagged<TrelloConf>>('TrelloConfig').implement({
  fields: (t) => ({
    token: t.exposeString('token', { description: 'The member’s token' }),
    boardName: t.exposeString('boardName'),
    listName: t.exposeString('listName'),
    listId: t.exposeString('listId'),
  }),
});
const TrelloConfigInput = builder.inputType('TrelloConfigInput', {
  fields: (t) => ({
    token: t.string({ required: true }),
    boardName: t.string({ required: true }),
    listName: t.string({ required: true }),
    listId: t.string({ required: true }),
  }),
});

const GroupConfig = builder.objectRef<Tagged<{ members: string[] }>>('GroupConfig').implement({
  fields: (t) => ({ members: t.idList({ description: 'The member channels’ UUIDs', resolve: (c) => c.members }) }),
});
const GroupConfigInput = builder.inputType('GroupConfigInput', {
  fields: (t) => ({ members: t.idList({ required: true, description: 'UUIDs of channels of the same project, not groups' }) }),
});

/**
 * The configured kinds: each one's output type, input type and, where GraphQL's names differ from
 * the kind's, how an input becomes the kind's configuration. The `ChannelConfigInput` field of a
 * kind is the kind's name.
 */
const CONFIGS = {
  pagerduty: { output: PagerDutyConfig, input: PagerDutyConfigInput },
  opsgenie: { output: OpsgenieConfig, input: OpsgenieConfigInput },
  ntfy: { output: NtfyConfig, input: NtfyConfigInput },
  pushover: { output: PushoverConfig, input: PushoverConfigInput },
  gotify: { output: GotifyConfig, input: GotifyConfigInput },
  zulip: { output: ZulipConfig, input: ZulipConfigInput },
  telegram: { output: TelegramConfig, input: TelegramConfigInput, toConfig: ({ chatId, ...rest }: { chatId: number }) => ({ id: chatId, ...rest }) },
  signal: { output: SignalConfig, input: SignalConfigInput },
  shell: { output: ShellConfig, input: ShellConfigInput },
  github: { output: GitHubConfig, input: GitHubConfigInput },
  trello: { output: TrelloConfig, input: TrelloConfigInput },
  group: { output: GroupConfig, input: GroupConfigInput },
} satisfies Partial<Record<Kind, { output: { name: string }; input: unknown; toConfig?: (input: never) => object }>>;

type ConfiguredKind = keyof typeof CONFIGS;
const configured = (kind: string): kind is ConfiguredKind => Object.hasOwn(CONFIGS, kind);
/** What `Channel.config` resolves to: one of the kinds' tagged configurations. */
type AnyConfig = { [K in ConfiguredKind]: (typeof CONFIGS)[K]['output']['$inferType'] }[ConfiguredKind];

export const ChannelConfig = builder.unionType('ChannelConfig', {
  description: 'A channel’s settings, typed per kind (the kinds whose value packs several fields)',
  types: Object.values(CONFIGS).map((c) => c.output),
  resolveType: (config) => CONFIGS[config.kind as ConfiguredKind].output.name,
});

export const ChannelConfigInput = builder.inputType('ChannelConfigInput', {
  description: 'Exactly one field: the one named after the channel’s kind',
  isOneOf: true,
  fields: (t) => Object.fromEntries(Object.entries(CONFIGS).map(([kind, c]) => [kind, t.field({ type: c.input })])) as Record<ConfiguredKind, never>,
});

/**
 * The typed configuration a stored channel holds; null for a kind without one, and for a stored
 * value its kind cannot read (a Healthchecks import of a form this server refuses: see `target`).
 */
export function channelConfigOf(channel: { kind: string; value: string }): AnyConfig | null {
  const definition = channelKind(channel.kind);
  if (!definition?.config || !configured(definition.kind)) return null;
  try {
    // The registry's hooks are typed `object`; the kind's read returns what its output type shows.
    return { ...definition.config.read(channel.value), kind: definition.kind } as AnyConfig;
  } catch {
    return null;
  }
}

/**
 * The `config` argument as the domain takes it (ChannelInput.config) for a channel of `kind`:
 * its one field must be the kind's own. Nulls are left out, so the kind's defaults apply.
 */
export function configFromArgument(arg: Record<string, unknown> | null | undefined, kind: string): object | undefined {
  if (!arg) return undefined;
  const [field, input] = Object.entries(arg).find(([, v]) => v != null) ?? [];
  if (!field || !configured(field) || !input) throw validationError('config must give one field, named after the channel’s kind');
  const definition = channelKind(kind);
  if (definition?.kind !== field) throw validationError(`config.${field} is the configuration of ${channelKind(field)?.label} channels, not of ${definition?.label ?? kind} ones`);
  const given = Object.fromEntries(Object.entries(input).filter(([, v]) => v != null));
  const entry = CONFIGS[field] as { toConfig?: (input: never) => object };
  return entry.toConfig ? entry.toConfig(given as never) : given;
}
