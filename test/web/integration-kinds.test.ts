// The app's forms for the incident and push kinds (web/integrations/kinds.ts) build the value the
// server takes, as Healthchecks stores it, and read a stored one back into their fields.
import { describe, expect, it } from 'vitest';
import { fieldsOf, KINDS, valueOf } from '../../web/integrations/kinds.ts';
import { validateChannelInput } from '../../src/monitoring/integrations/service.ts';
import { CHANNEL_KINDS } from '../../src/monitoring/integrations/kinds/index.ts';

describe('integration forms', () => {
  it('has a form for every kind the server has', () => {
    expect(Object.keys(KINDS).map((k) => k.toLowerCase()).sort()).toEqual([...CHANNEL_KINDS].sort());
  });

  it('offers closed choices as selects whose first option is what a blank field means, each accepted by the server', () => {
    const kinds = Object.entries(KINDS).flatMap(([kind, d]) => d.fields.filter((f) => f.options).map((f) => [kind, d, f] as const));
    expect(kinds.map(([kind, , f]) => `${kind}.${f.key}`)).toEqual(['OPSGENIE.region', 'NTFY.priority', 'NTFY.priority_up', 'PUSHOVER.prio', 'PUSHOVER.prio_up', 'ZULIP.mtype']);
    const filled: Record<string, Record<string, string>> = {
      OPSGENIE: { key: 'og-key' },
      NTFY: { topic: 'alerts' },
      PUSHOVER: { user_key: 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG' },
      ZULIP: { bot_email: 'bot@example.zulipchat.com', api_key: 'k', site: 'https://example.zulipchat.com', to: 'general' },
    };
    for (const [kind, d, f] of kinds) {
      // The select shows its first option for a blank field: the value built is the same.
      expect(valueOf(d, { ...filled[kind], [f.key]: f.options![0]!.value }), `${kind}.${f.key}`).toBe(valueOf(d, filled[kind]!));
      // Every option is a value the server takes (an option that sends nothing for one status is fine while the other sends).
      for (const o of f.options!) expect(() => validateChannelInput({ kind: kind.toLowerCase(), value: valueOf(d, { ...filled[kind], [f.key]: o.value }) }), `${kind}.${f.key}=${o.value}`).not.toThrow();
    }
  });

  it('builds Opsgenie’s {"region", "key"}, the region us unless given', () => {
    const value = valueOf(KINDS.OPSGENIE, { key: ' og-key ', region: '' });
    expect(value).toBe('{"region":"us","key":"og-key"}');
    expect(validateChannelInput({ kind: 'opsgenie', value })).toMatchObject({ kind: 'opsgenie', value });
    expect(fieldsOf(KINDS.OPSGENIE, '{"region": "eu", "key": "k"}')).toEqual({ key: 'k', region: 'eu' });
  });

  it('builds ntfy’s JSON with sorted keys, blank priorities at 3 and ntfy.sh as the default server', () => {
    const value = valueOf(KINDS.NTFY, { topic: 'alerts', priority: '5', priority_up: '0' });
    expect(value).toBe('{"priority":5,"priority_up":0,"token":"","topic":"alerts","url":"https://ntfy.sh"}');
    expect(validateChannelInput({ kind: 'ntfy', value })).toMatchObject({ notifyDown: true, notifyUp: false });
    expect(fieldsOf(KINDS.NTFY, value)).toEqual({ url: 'https://ntfy.sh', topic: 'alerts', priority: '5', priority_up: '0', token: '' });
    // A priority that is no number reaches the server, which words the refusal.
    expect(() => validateChannelInput({ kind: 'ntfy', value: valueOf(KINDS.NTFY, { topic: 't', priority: 'high' }) })).toThrow('priority must be a whole number from 0 (no notification) to 5 (max)');
  });

  it('builds Pushover’s "user_key|prio|prio_up" (blank priorities 0) and Gotify’s JSON (blank priorities 5), and reads them back', () => {
    const po = valueOf(KINDS.PUSHOVER, { user_key: ' uQiRzpo4DXghDmr9QzzfQu27cmVRsG ', prio: '2', prio_up: '' });
    expect(po).toBe('uQiRzpo4DXghDmr9QzzfQu27cmVRsG|2|0');
    expect(validateChannelInput({ kind: 'pushover', value: po })).toMatchObject({ kind: 'pushover', value: po });
    expect(fieldsOf(KINDS.PUSHOVER, 'abc|1')).toEqual({ user_key: 'abc', prio: '1', prio_up: '1' });
    const gotify = valueOf(KINDS.GOTIFY, { url: 'https://gotify.example.org', token: 'tok', priority: '', priority_up: '0' });
    expect(gotify).toBe('{"priority":5,"priority_up":0,"token":"tok","url":"https://gotify.example.org"}');
    expect(validateChannelInput({ kind: 'gotify', value: gotify })).toMatchObject({ notifyDown: true, notifyUp: false });
    expect(fieldsOf(KINDS.GOTIFY, gotify)).toEqual({ url: 'https://gotify.example.org', token: 'tok', priority: '5', priority_up: '0' });
    expect(valueOf(KINDS.PUSHBULLET, { value: 'o.token' })).toBe('o.token');
  });

  it('takes PagerDuty’s key and the URL kinds’ URLs as typed', () => {
    expect(valueOf(KINDS.PAGERDUTY, { value: 'f1e2d3c4b5a6f1e2d3c4b5a6f1e2d3c4' })).toBe('f1e2d3c4b5a6f1e2d3c4b5a6f1e2d3c4');
    for (const kind of ['VICTOROPS', 'PAGERTREE', 'SPIKE'] as const) expect(valueOf(KINDS[kind], { value: 'https://x.example.org/h' })).toBe('https://x.example.org/h');
  });

  it('builds Zulip’s JSON with sorted keys (stream unless given) and Telegram’s {"id", "thread_id"}, and reads them back', () => {
    const zulip = valueOf(KINDS.ZULIP, { bot_email: 'bot@example.zulipchat.com', api_key: ' k ', site: 'https://example.zulipchat.com', mtype: '', to: 'general', topic: '' });
    expect(zulip).toBe('{"api_key":"k","bot_email":"bot@example.zulipchat.com","mtype":"stream","site":"https://example.zulipchat.com","to":"general","topic":""}');
    expect(validateChannelInput({ kind: 'zulip', value: zulip })).toMatchObject({ kind: 'zulip', value: zulip });
    expect(fieldsOf(KINDS.ZULIP, zulip)).toEqual({ bot_email: 'bot@example.zulipchat.com', api_key: 'k', site: 'https://example.zulipchat.com', mtype: 'stream', to: 'general', topic: '' });
    const tg = valueOf(KINDS.TELEGRAM, { id: ' -100123 ', thread_id: '7' });
    expect(tg).toBe('{"id":-100123,"thread_id":7}');
    expect(validateChannelInput({ kind: 'telegram', value: tg })).toMatchObject({ kind: 'telegram', value: tg });
    expect(fieldsOf(KINDS.TELEGRAM, '{"id": 5, "type": "private", "name": "a"}')).toEqual({ id: '5', thread_id: '' });
    expect(() => validateChannelInput({ kind: 'telegram', value: valueOf(KINDS.TELEGRAM, { id: '@ops' }) })).toThrow('id must be a whole number (the chat id)');
    for (const kind of ['MSTEAMS', 'GOOGLECHAT'] as const) expect(valueOf(KINDS[kind], { value: 'https://x.example.org/h' })).toBe('https://x.example.org/h');
  });
});
