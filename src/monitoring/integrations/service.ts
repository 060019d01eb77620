// Notification channels ("integrations"). Listing is API-visible; creation is an operator
// action (CLI) and a GraphQL mutation, as Healthchecks creates them in its dashboard.
import { randomUUID } from 'node:crypto';
import type { Channel } from '../../generated/prisma/client.ts';
import { notFound, validationError } from '../../shared/errors.ts';
import { writableProject } from '../access.ts';
import type { MonitoringDeps, ProjectAccess } from '../context.ts';
import type { Db } from '../../db/client.ts';
import { holdsNul, NUL_REFUSED } from '../../shared/stored-text.ts';
import { CHANNEL_KINDS, channelKind, notEnabledMessage, type ChannelKind } from './kinds/index.ts';
import type { Notifies } from './kinds/definition.ts';
import type { WebhookSpecInput } from './kinds/webhook/spec.ts';
import { CLI_ACTOR, type Actor } from '../../identity/roles.ts';
import { recordAudit } from '../audit/service.ts';
import { accountEmail } from '../../identity/accounts.ts';
import { needsConsent } from './consent.ts';

// The kinds are declared in kinds/ (one folder each); these names stay importable from here.
export { CHANNEL_KINDS, type ChannelKind };

export async function listChannels(deps: MonitoringDeps, access: ProjectAccess) {
  // Healthchecks: channels need a read-write key.
  return deps.db.channel.findMany({ where: { projectId: writableProject(access) }, orderBy: { id: 'asc' } });
}

export interface ChannelInput {
  kind: string;
  /** Email address, E.164 phone number, or URL (webhooks: a bare URL posts a JSON document). */
  value?: string;
  name?: string;
  /** Healthchecks' webhook spec, instead of a bare URL (kinds with a `spec`: webhooks). */
  webhook?: WebhookSpecInput;
  /**
   * The kind's typed configuration, instead of a value (kinds with a `config`: ntfy's fields…);
   * stored as the value Healthchecks' form writes for it, then validated as that value.
   */
  config?: object;
  notifyDown?: boolean;
  notifyUp?: boolean;
  disabled?: boolean;
}

export interface ChannelFields {
  kind: ChannelKind;
  value: string;
  name: string;
  notifyDown: boolean;
  notifyUp: boolean;
  disabled: boolean;
}

/** The longest stored value: every field of Healthchecks' widest forms, with room to spare. */
export const MAX_VALUE_LENGTH = 4000;

export function validateChannelInput(input: ChannelInput): ChannelFields {
  const definition = channelKind(input.kind);
  if (!definition) throw validationError(`kind must be one of ${CHANNEL_KINDS.join(', ')}`);
  const kind = definition.kind as ChannelKind;
  const name = (input.name ?? '').trim();
  if (name.length > 100) throw validationError('name is too long');
  if (holdsNul(name)) throw validationError(NUL_REFUSED('name'));
  let notifyDown = input.notifyDown ?? true;
  let notifyUp = input.notifyUp ?? true;
  let value: string;
  refuseTwoForms(input);
  if (input.webhook) {
    if (!definition.spec) throw validationError('a webhook spec is only for webhook channels');
    if (input.value) throw validationError('give either a value (URL) or a webhook spec, not both');
    const stored = definition.spec.store(input.webhook);
    value = stored.value;
    // A status the spec cannot send is not sent here (Healthchecks' is_noop).
    notifyDown &&= stored.notifies.down;
    notifyUp &&= stored.notifies.up;
  } else {
    if (input.config && !definition.config) throw validationError(`${definition.label} channels take a value, not a config`);
    value = (input.config ? definition.config!.value(input.config) : (input.value ?? '')).trim();
    if (!value) throw validationError('value must not be empty');
    if (holdsNul(value)) throw validationError(NUL_REFUSED('value'));
    // A config is judged by its kind first: a field's own limit says more than the value's length.
    if (input.config) definition.validateValue(value);
    // Healthchecks' fields are up to 1,000 characters each, and some kinds store two (a shell
    // channel's commands) or a list (a group's members): the whole value may hold several.
    if (value.length > MAX_VALUE_LENGTH) throw validationError('value is too long');
    if (!input.config) definition.validateValue(value);
    // A status the value cannot send (an ntfy priority of 0) is not sent here (Healthchecks' is_noop).
    const can = definition.notifies?.(value);
    if (can) {
      notifyDown &&= can.down;
      notifyUp &&= can.up;
    }
  }
  if (!notifyDown && !notifyUp) throw validationError('a channel must notify of down, up or both');
  return { kind, value, name, notifyDown, notifyUp, disabled: input.disabled ?? false };
}

/** A config is a third form of the setting, beside a value and a webhook spec: never with either. */
function refuseTwoForms(input: Pick<ChannelInput, 'value' | 'webhook' | 'config'>): void {
  if (input.config == null || (!input.value && !input.webhook)) return;
  throw validationError(`give either ${input.webhook ? 'a webhook spec' : 'a value'} or a config, not both`);
}

/** The kind's rules among the project's other channels (a group's members), when it has any. */
async function validateAmongChannels(db: Db, projectId: string, data: ChannelFields, self: string | null): Promise<void> {
  const definition = channelKind(data.kind);
  if (!definition?.validateInProject) return;
  const channels = await db.channel.findMany({ where: { projectId }, select: { code: true, kind: true } });
  definition.validateInProject(data.value, { channels, self });
}

/**
 * Who changes a channel, for the audit log, and when. The operator functions below default to
 * the CLI at the system time; the `…For` functions pass the caller's actor and the deps' clock.
 */
export interface ChannelAuditBy {
  actor: Actor;
  at: Date;
  /**
   * The address of the person making the change (null: an API key, which has none). Left out:
   * the operator (CLI, importer), whose channels need no recipient's consent.
   */
  creatorEmail?: string | null;
}

/** Whether the stored address has its recipient's consent after this change (integrations/consent.ts). */
function consented(by: ChannelAuditBy, kind: string, value: string): boolean {
  return by.creatorEmail === undefined || !needsConsent(kind, value, by.creatorEmail);
}

const operator = (): ChannelAuditBy => ({ actor: CLI_ACTOR, at: new Date() });

/** The entry names the channel, never its value: a webhook URL or header may hold a token. */
const channelTarget = (channel: Channel) => ({ targetKind: 'channel' as const, targetId: channel.code, targetName: channel.name });

export async function createChannel(db: Db, projectId: string, input: ChannelInput, by: ChannelAuditBy = operator()) {
  const data = validateChannelInput(input);
  const project = await db.project.findUnique({ where: { id: projectId }, select: { id: true } });
  if (!project) throw validationError(`project not found: ${projectId}`);
  await validateAmongChannels(db, projectId, data, null);
  return db.$transaction(async (tx) => {
    const channel = await tx.channel.create({ data: { ...data, emailVerified: consented(by, data.kind, data.value), code: randomUUID(), projectId } });
    await recordAudit(tx, by.actor, projectId, { action: 'channel.created', ...channelTarget(channel), detail: { kind: channel.kind } }, by.at);
    return channel;
  });
}

/**
 * Refuses a new channel of a kind this server cannot send (its setting missing, its switch off),
 * naming the setting; `offered` undefined: every kind. Existing channels of such a kind stay
 * editable (an import, a setting removed later): they fail at delivery with the same sentence.
 */
export function refuseKindNotOffered(kind: string, offered: readonly string[] | undefined): void {
  const definition = channelKind(kind);
  if (!definition || !offered || offered.includes(definition.kind)) return;
  throw validationError(notEnabledMessage(definition));
}

export async function createChannelFor(deps: MonitoringDeps, access: ProjectAccess, input: ChannelInput) {
  refuseKindNotOffered(input.kind, deps.settings.offeredKinds);
  return createChannel(deps.db, writableProject(access), input, await byCaller(deps, access));
}

export type ChannelPatch = Omit<ChannelInput, 'kind'>;

/** What a stored channel was created from, so a patch can be validated as a whole. */
function inputOf(channel: Channel): ChannelInput {
  const spec = channelKind(channel.kind)?.spec?.read(channel.value) ?? null;
  return {
    kind: channel.kind,
    name: channel.name,
    disabled: channel.disabled,
    notifyDown: channel.notifyDown,
    notifyUp: channel.notifyUp,
    ...(spec ? { webhook: spec } : { value: channel.value }),
  };
}

/**
 * Updates a channel; `projectId` null is the operator (CLI), who may change any channel. With
 * `mergeSpec`, a given spec changes only the fields it names, side by side (the CLI's options
 * left out keep their value); without, a given spec replaces the stored one whole (GraphQL).
 */
export async function updateChannel(
  db: Db,
  projectId: string | null,
  code: string,
  patch: ChannelPatch,
  options: { mergeSpec?: boolean } = {},
  by: ChannelAuditBy = operator(),
) {
  const channel = await findChannel(db, projectId, code);
  const given = stripUndefined(patch);
  const definition = channelKind(channel.kind);
  const spec = definition?.spec;
  if (options.mergeSpec && given.webhook && spec) given.webhook = spec.patch(channel.value, given.webhook);
  if (given.value !== undefined && given.webhook !== undefined) throw validationError('give either a value (URL) or a webhook spec, not both');
  refuseTwoForms(given);
  const stored = inputOf(channel);
  const merged: ChannelInput = { ...stored, ...given };
  // A new target replaces the other form (bare URL vs spec).
  if (given.value !== undefined) delete merged.webhook;
  if (given.webhook !== undefined) delete merged.value;
  if (given.config !== undefined) {
    delete merged.value;
    delete merged.webhook;
  }
  // A flag left out keeps its value while the stored configuration can send that status; a
  // status it could not send (a webhook side without a URL) is notified once a new one can
  // (validateChannelInput turns off what a new spec cannot send). A bare value sends both.
  const could: Notifies = spec?.notifies(channel.value) ?? definition?.notifies?.(channel.value) ?? { down: true, up: true };
  merged.notifyDown = given.notifyDown ?? (could.down ? channel.notifyDown : true);
  merged.notifyUp = given.notifyUp ?? (could.up ? channel.notifyUp : true);
  const data = validateChannelInput(merged);
  // Judged when the value changes: a member deleted since does not block renaming or disabling
  // the group (Healthchecks' edit form leaves such members out; delivery skips them).
  if (data.value !== channel.value) await validateAmongChannels(db, channel.projectId, data, channel.code);
  // Field names only: a changed value (URL, address, spec) is named "value", never quoted.
  const changed = (Object.keys(data) as (keyof ChannelFields)[]).filter((k) => data[k] !== channel[k]);
  return db.$transaction(async (tx) => {
    // A new address needs its recipient's consent again; the same one keeps what it had.
    const emailVerified = data.value === channel.value ? channel.emailVerified : consented(by, data.kind, data.value);
    const updated = await tx.channel.update({ where: { id: channel.id }, data: { ...data, emailVerified } });
    // An update that changes nothing records nothing (as a pause of a paused check).
    if (changed.length) await recordAudit(tx, by.actor, updated.projectId, { action: 'channel.updated', ...channelTarget(updated), detail: { fields: changed } }, by.at);
    return updated;
  });
}

/** updateChannel for a caller of the management API: its project's channels only, its actor. */
export async function updateChannelFor(deps: MonitoringDeps, access: ProjectAccess, code: string, patch: ChannelPatch, options: { mergeSpec?: boolean } = {}) {
  return updateChannel(deps.db, writableProject(access), code, patch, options, await byCaller(deps, access));
}

/** The caller of the management API as a channel's changer: its actor, the clock, its own address. */
async function byCaller(deps: MonitoringDeps, access: ProjectAccess): Promise<ChannelAuditBy> {
  const personId = access.actor.personId;
  return { actor: access.actor, at: deps.clock.now(), creatorEmail: personId === null ? null : await accountEmail(deps.db, personId) };
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null)) as Partial<T>;
}

export async function findChannel(db: Db, projectId: string | null, code: string): Promise<Channel> {
  // A NUL names no channel; PostgreSQL would fail the query on it (a 500) instead of finding none.
  const channel = holdsNul(code) ? null : await db.channel.findUnique({ where: { code } });
  // Another project's channel is not found: its existence is not the caller's to know.
  if (!channel || (projectId !== null && channel.projectId !== projectId)) throw notFound(`channel not found: ${code}`);
  return channel;
}

export async function listProjectChannels(db: Db, projectId: string) {
  const project = await db.project.findUnique({ where: { id: projectId }, select: { id: true } });
  if (!project) throw notFound(`project not found: ${projectId}`);
  return db.channel.findMany({
    where: { projectId },
    orderBy: { id: 'asc' },
    include: { notifications: { orderBy: { id: 'desc' }, take: 1 } },
  });
}

/** Deletes a channel; `projectId` null is the operator (CLI). */
export async function deleteChannel(db: Db, code: string, projectId: string | null = null, by: ChannelAuditBy = operator()) {
  if (holdsNul(code)) throw notFound(`channel not found: ${code}`);
  await db.$transaction(async (tx) => {
    // Read in the transaction for the entry's project and name; the delete below decides.
    const channel = await tx.channel.findUnique({ where: { code } });
    const result = await tx.channel.deleteMany({ where: { code, ...(projectId === null ? {} : { projectId }) } });
    if (result.count === 0 || !channel) throw notFound(`channel not found: ${code}`);
    await recordAudit(tx, by.actor, channel.projectId, { action: 'channel.deleted', ...channelTarget(channel) }, by.at);
  });
}

/** deleteChannel for a caller of the management API: its project's channels only, its actor. */
export async function deleteChannelFor(deps: MonitoringDeps, access: ProjectAccess, code: string) {
  return deleteChannel(deps.db, code, writableProject(access), { actor: access.actor, at: deps.clock.now() });
}
