// Notification channels ("integrations"). Listing is API-visible; creation is an operator
// action (CLI) and a GraphQL mutation, as Healthchecks creates them in its dashboard.
import { randomUUID } from 'node:crypto';
import type { Channel } from '../../generated/prisma/client.ts';
import { notFound, validationError } from '../../shared/errors.ts';
import { writableProject } from '../access.ts';
import type { MonitoringDeps, ProjectAccess } from '../context.ts';
import type { Db } from '../../db/client.ts';
import { holdsNul } from '../../shared/stored-text.ts';
import { CHANNEL_KINDS, channelKind, type ChannelKind } from './kinds/index.ts';
import type { Notifies } from './kinds/definition.ts';
import type { WebhookSpecInput } from './kinds/webhook/spec.ts';

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

export function validateChannelInput(input: ChannelInput): ChannelFields {
  const definition = channelKind(input.kind);
  if (!definition) throw validationError(`kind must be one of ${CHANNEL_KINDS.join(', ')}`);
  const kind = definition.kind as ChannelKind;
  const name = (input.name ?? '').trim();
  if (name.length > 100) throw validationError('name is too long');
  let notifyDown = input.notifyDown ?? true;
  let notifyUp = input.notifyUp ?? true;
  let value: string;
  if (input.webhook) {
    if (!definition.spec) throw validationError('a webhook spec is only for webhook channels');
    if (input.value) throw validationError('give either a value (URL) or a webhook spec, not both');
    const stored = definition.spec.store(input.webhook);
    value = stored.value;
    // A status the spec cannot send is not sent here (Healthchecks' is_noop).
    notifyDown &&= stored.notifies.down;
    notifyUp &&= stored.notifies.up;
  } else {
    value = (input.value ?? '').trim();
    if (!value) throw validationError('value must not be empty');
    if (value.length > 1000) throw validationError('value is too long');
    definition.validateValue(value);
  }
  if (!notifyDown && !notifyUp) throw validationError('a channel must notify of down, up or both');
  return { kind, value, name, notifyDown, notifyUp, disabled: input.disabled ?? false };
}

export async function createChannel(db: Db, projectId: string, input: ChannelInput) {
  const data = validateChannelInput(input);
  const project = await db.project.findUnique({ where: { id: projectId }, select: { id: true } });
  if (!project) throw validationError(`project not found: ${projectId}`);
  return db.channel.create({ data: { ...data, code: randomUUID(), projectId } });
}

export async function createChannelFor(deps: MonitoringDeps, access: ProjectAccess, input: ChannelInput) {
  return createChannel(deps.db, writableProject(access), input);
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
export async function updateChannel(db: Db, projectId: string | null, code: string, patch: ChannelPatch, options: { mergeSpec?: boolean } = {}) {
  const channel = await findChannel(db, projectId, code);
  const given = stripUndefined(patch);
  const spec = channelKind(channel.kind)?.spec;
  if (options.mergeSpec && given.webhook && spec) given.webhook = spec.patch(channel.value, given.webhook);
  if (given.value !== undefined && given.webhook !== undefined) throw validationError('give either a value (URL) or a webhook spec, not both');
  const stored = inputOf(channel);
  const merged: ChannelInput = { ...stored, ...given };
  // A new target replaces the other form (bare URL vs spec).
  if (given.value !== undefined) delete merged.webhook;
  if (given.webhook !== undefined) delete merged.value;
  // A flag left out keeps its value while the stored configuration can send that status; a
  // status it could not send (a webhook side without a URL) is notified once a new one can
  // (validateChannelInput turns off what a new spec cannot send). A bare value sends both.
  const could: Notifies = spec?.notifies(channel.value) ?? { down: true, up: true };
  merged.notifyDown = given.notifyDown ?? (could.down ? channel.notifyDown : true);
  merged.notifyUp = given.notifyUp ?? (could.up ? channel.notifyUp : true);
  const data = validateChannelInput(merged);
  return db.channel.update({ where: { id: channel.id }, data });
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
export async function deleteChannel(db: Db, code: string, projectId: string | null = null) {
  if (holdsNul(code)) throw notFound(`channel not found: ${code}`);
  const result = await db.channel.deleteMany({ where: { code, ...(projectId === null ? {} : { projectId }) } });
  if (result.count === 0) throw notFound(`channel not found: ${code}`);
}
