// Healthchecks' webhook spec: for each of "down" and "up", a method, URL, body and headers;
// either side may be empty (no request for that status). Stored in the channel's value as
// Healthchecks stores it: {"method_down", "url_down", "body_down", "headers_down", ..._up}.
// A value that is a bare URL (channels created with `--value URL`) is not a spec: such a
// channel posts a JSON document for both statuses (transport.ts).
import { validationError } from '../../../../shared/errors.ts';
import { isHttpUrl } from '../shared/url.ts';

export const WEBHOOK_METHODS = ['GET', 'POST', 'PUT'] as const;
export type WebhookMethod = (typeof WEBHOOK_METHODS)[number];

export interface WebhookSide {
  method: WebhookMethod;
  url: string;
  body: string;
  headers: Record<string, string>;
}

export interface WebhookSpec {
  down: WebhookSide;
  up: WebhookSide;
}

export type WebhookSideInput = Partial<Omit<WebhookSide, 'method'>> & { method?: string };

export interface WebhookSpecInput {
  down?: WebhookSideInput;
  up?: WebhookSideInput;
}

const emptySide = (): WebhookSide => ({ method: 'GET', url: '', body: '', headers: {} });

/** The spec a stored value holds, or null when the value is a bare URL. */
export function webhookSpecFromValue(value: string): WebhookSpec | null {
  if (!value.startsWith('{')) return null;
  const doc = JSON.parse(value) as Record<string, unknown>;
  const side = (s: 'down' | 'up'): WebhookSide => ({
    method: (doc[`method_${s}`] as WebhookMethod) ?? 'GET',
    url: (doc[`url_${s}`] as string) ?? '',
    body: (doc[`body_${s}`] as string) ?? '',
    headers: (doc[`headers_${s}`] as Record<string, string>) ?? {},
  });
  return { down: side('down'), up: side('up') };
}

export function webhookValue(spec: WebhookSpec): string {
  const out: Record<string, unknown> = {};
  for (const s of ['down', 'up'] as const) {
    out[`method_${s}`] = spec[s].method;
    out[`url_${s}`] = spec[s].url;
    out[`body_${s}`] = spec[s].body;
    out[`headers_${s}`] = spec[s].headers;
  }
  return JSON.stringify(out);
}

// RFC 9110 token characters for header names; values may not break the header line.
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const URL_MAX = 1000;
const HEADER_MAX = 1000;

function validateSide(name: 'down' | 'up', input: WebhookSideInput | undefined): WebhookSide {
  if (!input) return emptySide();
  const side = emptySide();
  const method = (input.method ?? (input.body ? 'POST' : 'GET')).toUpperCase();
  if (!(WEBHOOK_METHODS as readonly string[]).includes(method)) throw validationError(`${name}: method must be one of ${WEBHOOK_METHODS.join(', ')}`);
  side.method = method as WebhookMethod;
  side.url = (input.url ?? '').trim();
  // Placeholders may stand in the URL; it must still be an http(s) URL as written.
  if (side.url && !isHttpUrl(side.url)) throw validationError(`${name}: url is not a valid http(s) URL`);
  if (side.url.length > URL_MAX) throw validationError(`${name}: url is too long`);
  side.body = input.body ?? '';
  if (side.body.length > 10_000) throw validationError(`${name}: body is too long`);
  if (side.body && !side.url) throw validationError(`${name}: a body needs a url`);
  for (const [key, value] of Object.entries(input.headers ?? {})) {
    if (!HEADER_NAME.test(key)) throw validationError(`${name}: invalid header name: ${key}`);
    if (/[\r\n\0]/.test(value)) throw validationError(`${name}: invalid value for header ${key}`);
    // Healthchecks' HeadersField: names and values up to 1000 characters.
    if (key.length > HEADER_MAX || value.length > HEADER_MAX) throw validationError(`${name}: header ${key.slice(0, 50)} is too long`);
    side.headers[key] = value;
  }
  return side;
}

/**
 * A stored spec (or none: a bare URL) with some fields of some sides changed, for updates that
 * name only what changes (the CLI's `channel update`). A side whose url is set to '' is emptied.
 */
export function patchWebhookSpec(stored: WebhookSpec | null, patch: WebhookSpecInput): WebhookSpecInput {
  const side = (s: 'down' | 'up'): WebhookSideInput | undefined => {
    const p = patch[s];
    const old = stored?.[s].url ? stored[s] : undefined;
    if (!p) return old;
    const base = p.url === '' ? undefined : old;
    return { method: p.method ?? base?.method, url: p.url ?? base?.url, body: p.body ?? base?.body, headers: p.headers ?? base?.headers };
  };
  return { down: side('down'), up: side('up') };
}

export function validateWebhookSpec(input: WebhookSpecInput): WebhookSpec {
  const spec = { down: validateSide('down', input.down), up: validateSide('up', input.up) };
  if (!spec.down.url && !spec.up.url) throw validationError('a webhook needs a url for down, for up, or both');
  return spec;
}
