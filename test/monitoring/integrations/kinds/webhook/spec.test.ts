// Webhook channel input as both transports share it: Healthchecks' webhook spec (methods, URLs,
// bodies, headers, empty sides), how it is stored and patched, and a bare URL instead of a spec.
import { describe, expect, it } from 'vitest';
import { patchWebhookSpec, validateWebhookSpec, webhookSpecFromValue, webhookValue, type WebhookSideInput } from '../../../../../src/monitoring/integrations/kinds/webhook/spec.ts';
import { validateChannelInput, type ChannelInput } from '../../../../../src/monitoring/integrations/service.ts';
import { refusal } from '../helpers.ts';

const URL_A = 'https://hooks.example.org/down';
const down = (side: WebhookSideInput) => validateWebhookSpec({ down: { url: URL_A, ...side } }).down;
const webhook = (spec: ChannelInput['webhook'], extra: Partial<ChannelInput> = {}) => validateChannelInput({ kind: 'webhook', webhook: spec, ...extra });

describe('webhook spec: methods', () => {
  it('accepts GET, POST and PUT in any case, stored upper-case', () => {
    expect(down({ method: 'GET' }).method).toBe('GET');
    expect(down({ method: 'post' }).method).toBe('POST');
    expect(down({ method: 'Put' }).method).toBe('PUT');
  });

  it('defaults to POST when there is a body, else GET', () => {
    expect(down({ body: 'x' }).method).toBe('POST');
    expect(down({}).method).toBe('GET');
  });

  it('refuses other methods, naming the side', () => {
    expect(refusal(() => down({ method: 'DELETE' }))).toBe('down: method must be one of GET, POST, PUT');
    expect(refusal(() => validateWebhookSpec({ up: { url: URL_A, method: 'PATCH' } }))).toBe('up: method must be one of GET, POST, PUT');
    expect(refusal(() => down({ method: '' }))).toBe('down: method must be one of GET, POST, PUT');
  });
});

describe('webhook spec: URLs', () => {
  it('accepts http and https URLs, trimmed, with placeholders in them', () => {
    expect(down({ url: '  http://127.0.0.1:8080/hook  ' }).url).toBe('http://127.0.0.1:8080/hook');
    expect(down({ url: 'https://example.org/$CODE/$STATUS?name=$NAME' }).url).toBe('https://example.org/$CODE/$STATUS?name=$NAME');
  });

  it('refuses other schemes, non-URLs and URLs over 1000 characters', () => {
    expect(refusal(() => down({ url: 'ftp://example.org/x' }))).toBe('down: url is not a valid http(s) URL');
    expect(refusal(() => down({ url: 'example.org/hook' }))).toBe('down: url is not a valid http(s) URL');
    expect(refusal(() => validateWebhookSpec({ up: { url: 'javascript:alert(1)' } }))).toBe('up: url is not a valid http(s) URL');
    expect(refusal(() => down({ url: `https://example.org/${'a'.repeat(1000)}` }))).toBe('down: url is too long');
  });

  it('needs a url for down, for up, or both', () => {
    const message = 'a webhook needs a url for down, for up, or both';
    expect(refusal(() => validateWebhookSpec({}))).toBe(message);
    expect(refusal(() => validateWebhookSpec({ down: { url: '' }, up: { url: '   ' } }))).toBe(message);
    expect(refusal(() => validateWebhookSpec({ down: { method: 'GET', headers: { 'X-A': '1' } } }))).toBe(message);
  });

  it('leaves a side without url empty: a GET of nothing, no body, no headers', () => {
    const spec = validateWebhookSpec({ up: { url: URL_A } });
    expect(spec.down).toEqual({ method: 'GET', url: '', body: '', headers: {} });
    expect(spec.up).toEqual({ method: 'GET', url: URL_A, body: '', headers: {} });
  });

  it('refuses a body without a url on its side', () => {
    expect(refusal(() => validateWebhookSpec({ down: { url: URL_A }, up: { body: 'up!' } }))).toBe('up: a body needs a url');
  });

  it('refuses a body over 10,000 characters', () => {
    expect(refusal(() => down({ body: 'x'.repeat(10_001) }))).toBe('down: body is too long');
    expect(down({ body: 'x'.repeat(10_000) }).body).toHaveLength(10_000);
  });
});

describe('webhook spec: headers', () => {
  it('keeps token-character names and values with placeholders, in order', () => {
    const side = down({ headers: { 'X-Token': 'secret', "A!#$%&'*+-.^_`|~9": '$NAME', Authorization: 'Bearer $CODE' } });
    expect(Object.entries(side.headers)).toEqual([
      ['X-Token', 'secret'],
      ["A!#$%&'*+-.^_`|~9", '$NAME'],
      ['Authorization', 'Bearer $CODE'],
    ]);
  });

  it('refuses names that are empty or hold spaces, colons or separators', () => {
    for (const name of ['', 'X Token', 'X:Token', 'X-Tökén', '(x)', 'a/b']) {
      expect(refusal(() => down({ headers: { [name]: 'v' } })), JSON.stringify(name)).toBe(`down: invalid header name: ${name}`);
    }
  });

  it('refuses values that would break the header line', () => {
    for (const value of ['a\r\nX-Injected: 1', 'a\nb', 'a\rb', 'a\0b']) {
      expect(refusal(() => down({ headers: { 'X-A': value } })), JSON.stringify(value)).toBe('down: invalid value for header X-A');
    }
    expect(down({ headers: { 'X-A': '' } }).headers).toEqual({ 'X-A': '' });
  });

  it('refuses names and values over 1000 characters, as Healthchecks does', () => {
    expect(down({ headers: { 'X-A': 'v'.repeat(1000), ['N'.repeat(1000)]: '' } }).headers['X-A']).toHaveLength(1000);
    expect(refusal(() => down({ headers: { 'X-A': 'v'.repeat(1001) } }))).toBe('down: header X-A is too long');
    expect(refusal(() => down({ headers: { ['N'.repeat(1001)]: 'v' } }))).toBe(`down: header ${'N'.repeat(50)} is too long`);
  });
});

describe('webhook spec: storage', () => {
  it("stores Healthchecks' JSON and reads it back", () => {
    const spec = validateWebhookSpec({ down: { url: URL_A, method: 'POST', body: '{"s":"$STATUS"}', headers: { 'X-A': '1' } }, up: { url: 'http://up.example.org/' } });
    const value = webhookValue(spec);
    expect(JSON.parse(value)).toEqual({
      method_down: 'POST', url_down: URL_A, body_down: '{"s":"$STATUS"}', headers_down: { 'X-A': '1' },
      method_up: 'GET', url_up: 'http://up.example.org/', body_up: '', headers_up: {},
    });
    expect(webhookSpecFromValue(value)).toEqual(spec);
  });

  it('reads a bare URL as no spec', () => {
    expect(webhookSpecFromValue('https://example.org/hook')).toBeNull();
  });
});

describe('webhook spec: patches (fields left out keep their value)', () => {
  const stored = validateWebhookSpec({
    down: { method: 'POST', url: 'https://a.example.org/down', body: 'b', headers: { 'X-A': '1' } },
    up: { url: 'https://a.example.org/up' },
  });

  it('changes only the given fields of the given side', () => {
    const spec = validateWebhookSpec(patchWebhookSpec(stored, { up: { url: 'https://b.example.org/up', method: 'PUT' } }));
    expect(spec).toEqual({ down: stored.down, up: { method: 'PUT', url: 'https://b.example.org/up', body: '', headers: {} } });
    expect(validateWebhookSpec(patchWebhookSpec(stored, { down: { headers: { 'X-B': '2' } } })).down).toEqual({ ...stored.down, headers: { 'X-B': '2' } });
  });

  it("empties a side whose url is set to ''", () => {
    const spec = validateWebhookSpec(patchWebhookSpec(stored, { down: { url: '' } }));
    expect(spec.down).toEqual({ method: 'GET', url: '', body: '', headers: {} });
    expect(spec.up).toEqual(stored.up);
    expect(refusal(() => validateWebhookSpec(patchWebhookSpec(stored, { down: { url: '' }, up: { url: '' } })))).toBe('a webhook needs a url for down, for up, or both');
  });

  it('starts from empty sides when the channel had a bare URL', () => {
    expect(patchWebhookSpec(null, { up: { url: URL_A } })).toEqual({ down: undefined, up: { url: URL_A, method: undefined, body: undefined, headers: undefined } });
  });
});

describe('validateChannelInput: webhooks', () => {
  it('derives the notify flags from the sides that have a url', () => {
    expect(webhook({ down: { url: URL_A } })).toMatchObject({ notifyDown: true, notifyUp: false });
    expect(webhook({ up: { url: URL_A } })).toMatchObject({ notifyDown: false, notifyUp: true });
    expect(webhook({ down: { url: URL_A }, up: { url: URL_A } })).toMatchObject({ notifyDown: true, notifyUp: true });
  });

  it('lets explicit flags turn a side off but never on without a url', () => {
    expect(webhook({ down: { url: URL_A }, up: { url: URL_A } }, { notifyUp: false })).toMatchObject({ notifyDown: true, notifyUp: false });
    expect(webhook({ down: { url: URL_A } }, { notifyUp: true })).toMatchObject({ notifyDown: true, notifyUp: false });
    expect(refusal(() => webhook({ down: { url: URL_A } }, { notifyDown: false }))).toBe('a channel must notify of down, up or both');
  });

  it('stores a spec as JSON and a bare URL as itself', () => {
    const spec = webhook({ down: { url: URL_A } }, { name: '  Hook  ' });
    expect(spec).toMatchObject({ kind: 'webhook', name: 'Hook', disabled: false });
    expect(webhookSpecFromValue(spec.value)!.down.url).toBe(URL_A);
    expect(validateChannelInput({ kind: 'webhook', value: ` ${URL_A} ` })).toEqual({
      kind: 'webhook', value: URL_A, name: '', notifyDown: true, notifyUp: true, disabled: false,
    });
  });

  it('refuses a value and a spec together, a spec for another kind, and a bad bare URL', () => {
    expect(refusal(() => validateChannelInput({ kind: 'webhook', value: URL_A, webhook: { down: { url: URL_A } } }))).toBe('give either a value (URL) or a webhook spec, not both');
    expect(refusal(() => validateChannelInput({ kind: 'slack', webhook: { down: { url: URL_A } } }))).toBe('a webhook spec is only for webhook channels');
    expect(refusal(() => validateChannelInput({ kind: 'webhook', value: 'not a url' }))).toBe('value is not a valid http(s) URL');
    expect(refusal(() => validateChannelInput({ kind: 'webhook' }))).toBe('value must not be empty');
  });
});
