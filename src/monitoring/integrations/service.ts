// Notification channels ("integrations"). Listing is API-visible; creation is an operator
// action (CLI) and a GraphQL mutation, as Healthchecks creates them in its dashboard.
import { randomUUID } from 'node:crypto';
import { notFound, unauthenticated, validationError } from '../../shared/errors.ts';
import type { MonitoringDeps, ProjectAccess } from '../context.ts';
import type { Db } from '../../db/client.ts';

export const CHANNEL_KINDS = ['email', 'webhook', 'sms'] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

export async function listChannels(deps: MonitoringDeps, access: ProjectAccess) {
  // Healthchecks: channels need a read-write key.
  if (access.readOnly) throw unauthenticated('wrong api key');
  return deps.db.channel.findMany({ where: { projectId: access.projectId }, orderBy: { id: 'asc' } });
}

export interface ChannelInput {
  kind: string;
  value: string;
  name?: string;
}

export function validateChannelInput(input: ChannelInput): { kind: ChannelKind; value: string; name: string } {
  if (!(CHANNEL_KINDS as readonly string[]).includes(input.kind)) {
    throw validationError(`kind must be one of ${CHANNEL_KINDS.join(', ')}`);
  }
  const kind = input.kind as ChannelKind;
  const value = input.value.trim();
  if (!value) throw validationError('value must not be empty');
  if (kind === 'email' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) throw validationError('value is not a valid email address');
  if (kind === 'webhook') {
    let url: URL | undefined;
    try {
      url = new URL(value);
    } catch {
      url = undefined;
    }
    if (!url || !['http:', 'https:'].includes(url.protocol)) throw validationError('value is not a valid http(s) URL');
  }
  if (kind === 'sms' && !/^\+[1-9]\d{6,14}$/.test(value)) throw validationError('value is not a valid phone number (E.164, e.g. +15551234567)');
  const name = (input.name ?? '').trim();
  if (name.length > 100) throw validationError('name is too long');
  return { kind, value, name };
}

export async function createChannel(db: Db, projectId: string, input: ChannelInput) {
  const data = validateChannelInput(input);
  const project = await db.project.findUnique({ where: { id: projectId }, select: { id: true } });
  if (!project) throw validationError(`project not found: ${projectId}`);
  return db.channel.create({ data: { ...data, code: randomUUID(), projectId } });
}

export async function createChannelFor(deps: MonitoringDeps, access: ProjectAccess, input: ChannelInput) {
  if (access.readOnly) throw unauthenticated('wrong api key');
  return createChannel(deps.db, access.projectId, input);
}

export async function listProjectChannels(db: Db, projectId: string) {
  const project = await db.project.findUnique({ where: { id: projectId }, select: { id: true } });
  if (!project) throw notFound(`project not found: ${projectId}`);
  return db.channel.findMany({ where: { projectId }, orderBy: { id: 'asc' } });
}

export async function deleteChannel(db: Db, code: string) {
  const result = await db.channel.deleteMany({ where: { code } });
  if (result.count === 0) throw notFound(`channel not found: ${code}`);
}
