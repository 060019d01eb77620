// Reading a Healthchecks instance, without a database: Django's value formats (dumpdata's and
// SQLite's), dumpdata documents of older Healthchecks versions, and each channel kind's value
// in our form.
import { describe, expect, it } from 'vitest';
import { accountLevelOf, parseAttestedCredential } from '../../../src/drop-in/healthchecks/accounts.ts';
import { mapChannel } from '../../../src/drop-in/healthchecks/channels.ts';
import { readDumpdata } from '../../../src/drop-in/healthchecks/dumpdata.ts';
import { SourceError, type HcChannel, type HcUser } from '../../../src/drop-in/healthchecks/model.ts';
import { sqliteFileOf } from '../../../src/drop-in/healthchecks/source.ts';
import { djangoDate, djangoDuration, djangoUuid } from '../../../src/drop-in/healthchecks/values.ts';

describe("Django's values", () => {
  it('reads durations as dumpdata, DjangoJSONEncoder and SQLite write them', () => {
    expect(djangoDuration('1 00:00:00', 't')).toBe(86400);
    expect(djangoDuration('01:00:00', 't')).toBe(3600);
    expect(djangoDuration('00:12:30.123000', 't')).toBeCloseTo(750.123);
    expect(djangoDuration('-1 23:59:59', 't')).toBe(-1);
    expect(djangoDuration('P1DT02H00M00S', 't')).toBe(93600);
    expect(djangoDuration('PT5M', 't')).toBe(300);
    expect(djangoDuration(60_000_000, 't', 'microseconds')).toBe(60);
    expect(djangoDuration(null, 't')).toBeNull();
    expect(() => djangoDuration('an hour', 'api.check x: timeout')).toThrow(new SourceError('api.check x: timeout: not a duration: an hour'));
  });

  it('reads datetimes with a zone, and naive ones (SQLite) as UTC, to the millisecond', () => {
    expect(djangoDate('2026-01-05T03:00:00.123Z', 't')).toEqual(new Date('2026-01-05T03:00:00.123Z'));
    expect(djangoDate('2026-01-05T03:00:00+02:00', 't')).toEqual(new Date('2026-01-05T01:00:00Z'));
    expect(djangoDate('2026-01-05 03:00:00.123456', 't')).toEqual(new Date('2026-01-05T03:00:00.123Z'));
    expect(djangoDate('', 't')).toBeNull();
  });

  it('reads UUIDs dashed or as SQLite keeps them', () => {
    expect(djangoUuid('7E2A9C4D1B3F4E5A8C6D0F1E2A3B4C5D', 't')).toBe('7e2a9c4d-1b3f-4e5a-8c6d-0f1e2a3b4c5d');
    expect(djangoUuid(null, 't', true)).toBeNull();
    expect(() => djangoUuid('nope', 'api.check #1: code')).toThrow('api.check #1: code: not a UUID: "nope"');
  });

  it('takes SQLite files as paths or URLs, and PostgreSQL as URLs', () => {
    expect(sqliteFileOf('/srv/hc/hc.sqlite')).toBe('/srv/hc/hc.sqlite');
    expect(sqliteFileOf('sqlite:///srv/hc/hc.sqlite')).toBe('/srv/hc/hc.sqlite');
    expect(sqliteFileOf('file:hc.sqlite')).toBe('hc.sqlite');
    expect(sqliteFileOf('postgresql://hc@db/hc')).toBeNull();
    expect(sqliteFileOf('postgres://hc@db/hc')).toBeNull();
  });
});

describe('readDumpdata', () => {
  const user = { model: 'auth.user', pk: 7, fields: { username: 'old', email: 'old@example.org', password: 'md5$s$h', is_active: true } };
  const project = { model: 'accounts.project', pk: 1, fields: { code: '9b0c6e3a2d414f5e8a7b1c2d3e4f5a6b', name: '', owner: 7, api_key: 'plain', badge_key: 'old' } };

  it('names users by id as well as by natural key, and counts the models it leaves alone', () => {
    const instance = readDumpdata(JSON.stringify([user, project, { model: 'contenttypes.contenttype', pk: 1, fields: {} }, { model: 'api.tokenbucket', pk: 1, fields: {} }]));
    expect(instance.projects[0]).toMatchObject({ owner: 'old', code: '9b0c6e3a-2d41-4f5e-8a7b-1c2d3e4f5a6b', apiKeyReadonly: '', pingKey: null });
    expect(instance.ignored).toEqual({ 'contenttypes.contenttype': 1, 'api.tokenbucket': 1 });
  });

  it("reads an older Healthchecks' check: subject filters, no badge key, members without roles", () => {
    const check = { model: 'api.check', pk: 3, fields: { code: 'd3e4f5a6-b7c8-4d9e-8f0a-1b2c3d4e5f6a', project: 1, created: '2019-01-01T00:00:00Z', timeout: '1 00:00:00', grace: '01:00:00', subject: 'SUCCESS', subject_fail: '', n_pings: 3, status: 'up' } };
    const member = { model: 'accounts.member', pk: 1, fields: { user: ['old'], project: 1 } };
    const instance = readDumpdata(JSON.stringify([user, project, check, member]));
    expect(instance.checks[0]).toMatchObject({ successKw: 'SUCCESS', failureKw: '', filterSubject: true, badgeKey: '', kind: 'simple', timeout: 86400, methods: '' });
    expect(instance.members).toEqual([{ user: 'old', project: 1, role: 'w' }]);
  });

  it('refuses what is not a dumpdata document, and a user the file does not hold', () => {
    expect(() => readDumpdata('{"model": "api.check"}')).toThrow(/not a dumpdata file: expected a list/);
    expect(() => readDumpdata('[{')).toThrow(/not a dumpdata file/);
    expect(() => readDumpdata(JSON.stringify([project]))).toThrow('accounts.project #1: user 7 is not in the file (dump auth.user too)');
  });
});

describe("channels in our form", () => {
  const channel = (kind: string, value: string, name = ''): HcChannel => ({ pk: 1, code: '8a9b0c1d-2e3f-4a5b-8c6d-7e8f9a0b1c2d', project: 1, name, created: new Date(0), kind, value, disabled: false, emailVerified: true, checks: [] });
  const fields = (kind: string, value: string) => {
    const mapped = mapChannel(channel(kind, value));
    return { supported: mapped.supported, kind: mapped.fields.kind, value: mapped.fields.value, down: mapped.fields.notifyDown, up: mapped.fields.notifyUp, disabled: mapped.fields.disabled };
  };

  it('email and SMS: an address or number, with the statuses Healthchecks sends', () => {
    expect(fields('email', 'ops@example.org')).toEqual({ supported: true, kind: 'email', value: 'ops@example.org', down: true, up: true, disabled: false });
    expect(fields('email', '{"value": "ops@example.org", "up": false, "down": true}')).toMatchObject({ value: 'ops@example.org', down: true, up: false });
    expect(fields('sms', '{"value": "+15551234567", "up": true, "down": null}')).toMatchObject({ kind: 'sms', value: '+15551234567', down: false, up: true });
    // Neither status: kept, disabled (our channels send one or the other).
    expect(fields('email', '{"value": "ops@example.org", "up": false, "down": false}')).toMatchObject({ down: true, up: true, disabled: true });
  });

  it('webhooks: the JSON spec as stored, and the first form (url_down, url_up, body on lines)', () => {
    const spec = JSON.parse(fields('webhook', 'https://example.org/down\n\n{"a": 1}').value);
    expect(spec).toMatchObject({ method_down: 'POST', url_down: 'https://example.org/down', body_down: '{"a": 1}', url_up: '' });
    expect(fields('webhook', 'https://example.org/down\n\n{"a": 1}')).toMatchObject({ down: true, up: false });
  });

  it('chat kinds: the incoming webhook URL out of Slack and Discord answers', () => {
    expect(fields('slack', '{"ok": true, "incoming_webhook": {"url": "https://hooks.slack.com/services/T/B/X"}}').value).toBe('https://hooks.slack.com/services/T/B/X');
    expect(fields('mattermost', 'https://chat.example.org/hooks/abc').value).toBe('https://chat.example.org/hooks/abc');
    expect(fields('discord', '{"webhook": {"url": "https://discordapp.com/api/webhooks/1/x"}}').value).toBe('https://discord.com/api/webhooks/1/x');
    expect(fields('rocketchat', 'https://rocket.example.org/hooks/x').value).toBe('https://rocket.example.org/hooks/x');
  });

  it("takes the value of a kind that stores it as Healthchecks does, under Healthchecks' code ('pd')", () => {
    expect(fields('pd', '{"service_key": "abc123", "account": "acme"}')).toMatchObject({ supported: true, kind: 'pagerduty', disabled: false });
  });

  it('keeps a value our validation refuses, or a kind we cannot send, as stored and disabled, saying why', () => {
    const bad = mapChannel(channel('slack', 'not a url'));
    expect(bad).toMatchObject({ supported: false, fields: { kind: 'slack', value: 'not a url', disabled: true }, note: expect.stringContaining('its slack configuration is not valid here') });
    // HipChat: a kind Healthchecks has since removed, which old databases still hold.
    const hipchat = mapChannel(channel('hipchat', 'https://api.hipchat.com/v2/room/123/notification?auth_token=abc', 'Chat'));
    expect(hipchat).toMatchObject({ supported: false, fields: { kind: 'hipchat', name: 'Chat', disabled: true }, note: 'this server cannot send hipchat notifications yet: imported disabled, as Healthchecks stored it' });
    // Signal's PhoneConf is taken as Healthchecks stored it.
    expect(mapChannel(channel('signal', '{"value": "+15551234567", "up": true, "down": false}', 'Phone'))).toMatchObject({ supported: true, fields: { kind: 'signal', notifyDown: false, notifyUp: true, disabled: false } });
  });
});

describe('accounts', () => {
  const base: HcUser = { username: 'u', email: 'u@example.org', password: '', firstName: '', lastName: '', isActive: true, isStaff: false, isSuperuser: false, dateJoined: null };

  it("map Django's flags to Slate's levels", () => {
    expect(accountLevelOf(base)).toBe('User');
    expect(accountLevelOf({ ...base, isStaff: true })).toBe('Staff');
    expect(accountLevelOf({ ...base, isStaff: true, isSuperuser: true })).toBe('Administrator');
    expect(accountLevelOf({ ...base, isSuperuser: true, isActive: false })).toBe('Disabled');
  });

  it("read fido2's attested credential data: the credential id and its COSE key", () => {
    const id = Buffer.from('c0ffee0011', 'hex');
    const cose = Buffer.from('a5010203262001', 'hex');
    const data = Buffer.concat([Buffer.alloc(16), Buffer.from([0, id.length]), id, cose]);
    expect(parseAttestedCredential(data)).toEqual({ credentialId: id.toString('base64url'), publicKey: cose.toString('base64url') });
    expect(parseAttestedCredential(Buffer.alloc(10))).toBeNull();
  });
});
