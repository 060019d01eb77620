// A Healthchecks channel in our terms. Healthchecks keeps each kind's configuration in
// Channel.value in its own shape (hc/api/models.py: EmailConf, PhoneConf, the webhook spec,
// Slack's OAuth answer…); ours keeps the target (address, number, URL) or, for webhooks, the same
// spec. A kind this server cannot send yet keeps its kind and value exactly as Healthchecks
// stored them, disabled, so the issue that adds the kind finds them ready: enabling is all it
// takes. Every supported value goes through the kind's own validation (validateChannelInput).
import { channelKind } from '../../monitoring/integrations/kinds/index.ts';
import { validateChannelInput, type ChannelFields, type ChannelInput } from '../../monitoring/integrations/service.ts';
import { DomainError } from '../../shared/errors.ts';
import type { HcChannel } from './model.ts';

export type MappedChannel =
  | { supported: true; fields: ChannelFields }
  | { supported: false; fields: ChannelFields; note: string };

type Json = Record<string, unknown>;

function json(value: string): Json | null {
  if (!value.trim().startsWith('{')) return null;
  try {
    const doc = JSON.parse(value) as unknown;
    return typeof doc === 'object' && doc !== null && !Array.isArray(doc) ? (doc as Json) : null;
  } catch {
    return null;
  }
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** EmailConf/PhoneConf: a plain value (both statuses), or {"value", "up", "down"}; a missing flag sends nothing. */
function targetAndFlags(value: string): { target: string; up: boolean; down: boolean } {
  const doc = json(value);
  if (!doc) return { target: value.trim(), up: true, down: true };
  return { target: str(doc.value).trim(), up: doc.up === true, down: doc.down === true };
}

/** Slack and Mattermost: a plain URL, or the OAuth answer {"incoming_webhook": {"url"}}. */
const incomingWebhook = (value: string) => {
  const doc = json(value);
  return doc ? str((doc.incoming_webhook as Json | undefined)?.url) : value.trim();
};

/** Discord: {"webhook": {"url"}}; discordapp.com became discord.com (Channel.discord_webhook_url). */
function discordUrl(value: string): string {
  const doc = json(value);
  const url = doc ? str((doc.webhook as Json | undefined)?.url) : value.trim();
  return url.startsWith('https://discordapp.com/') ? `https://discord.com/${url.slice(23)}` : url;
}

/** The webhook spec: Healthchecks' JSON, or its first form ("url_down\nurl_up\npost_data"). */
function webhookSpec(value: string) {
  const doc = json(value);
  if (doc) {
    const side = (s: 'down' | 'up') => ({
      method: str(doc[`method_${s}`]) || undefined,
      url: str(doc[`url_${s}`]),
      body: str(doc[`body_${s}`]),
      headers: (doc[`headers_${s}`] as Record<string, string> | undefined) ?? {},
    });
    return { down: side('down'), up: side('up') };
  }
  const [down = '', up = '', body = ''] = value.split('\n');
  // The one body went with both requests; a side without a URL sends nothing at all.
  const side = (url: string) => (url.trim() ? { method: body ? 'POST' : 'GET', url: url.trim(), body, headers: {} } : { url: '' });
  return { down: side(down), up: side(up) };
}

/** The kinds we send, and how each reads Healthchecks' value. */
const READERS: Record<string, (c: HcChannel) => ChannelInput> = {
  email: (c) => {
    const t = targetAndFlags(c.value);
    return { kind: 'email', value: t.target, notifyDown: t.down, notifyUp: t.up };
  },
  sms: (c) => {
    const t = targetAndFlags(c.value);
    return { kind: 'sms', value: t.target, notifyDown: t.down, notifyUp: t.up };
  },
  whatsapp: (c) => {
    const t = targetAndFlags(c.value);
    return { kind: 'whatsapp', value: t.target, notifyDown: t.down, notifyUp: t.up };
  },
  // PhoneNumberForm's {"value"} without flags: a call is made for down only (Call.is_noop).
  call: (c) => ({ kind: 'call', value: targetAndFlags(c.value).target, notifyDown: true, notifyUp: false }),
  webhook: (c) => ({ kind: 'webhook', webhook: webhookSpec(c.value) }),
  slack: (c) => ({ kind: 'slack', value: incomingWebhook(c.value) }),
  mattermost: (c) => ({ kind: 'mattermost', value: incomingWebhook(c.value) }),
  rocketchat: (c) => ({ kind: 'rocketchat', value: c.value.trim() }),
  discord: (c) => ({ kind: 'discord', value: discordUrl(c.value) }),
};

/** Kept as Healthchecks stored it, switched off, with the reason. */
function unsupported(c: HcChannel, note: string): MappedChannel {
  return { supported: false, note, fields: { kind: c.kind as ChannelFields['kind'], value: c.value, name: c.name.trim().slice(0, 100), notifyDown: true, notifyUp: true, disabled: true } };
}

/** A kind of ours with no reader above stores its value as Healthchecks does: taken as it is (and validated). */
const asStored = (c: HcChannel): ChannelInput => ({ kind: c.kind, value: c.value });

export function mapChannel(c: HcChannel): MappedChannel {
  const read = READERS[c.kind] ?? (channelKind(c.kind) ? asStored : undefined);
  if (!read) return unsupported(c, `this server cannot send ${c.kind} notifications yet: imported disabled, as Healthchecks stored it`);
  const input = { ...read(c), name: c.name.trim().slice(0, 100), disabled: c.disabled };
  try {
    // Healthchecks lets a channel send neither status (e.g. email with both boxes unticked): kept
    // disabled, sending both once someone enables it (our channels must send one or the other).
    if (input.notifyDown === false && input.notifyUp === false) {
      return { supported: true, fields: validateChannelInput({ ...input, notifyDown: true, notifyUp: true, disabled: true }) };
    }
    return { supported: true, fields: validateChannelInput(input) };
  } catch (err) {
    // A value our validation refuses (an odd URL) does not stop the project: kept, disabled, said why.
    if (err instanceof DomainError) return unsupported(c, `its ${c.kind} configuration is not valid here (${err.message}): imported disabled, as Healthchecks stored it`);
    throw err;
  }
}
