// Healthchecks' JSON shapes as the serializers write them (rest-compat/healthchecks/serialize.ts):
// the Check, Ping, Flip and Channel objects, the badge URLs, the check spec a POST takes, and
// the `{"error": ...}` body of every refusal.
import type { Schema } from './types.ts';
import { ref } from './types.ts';

const UUID = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
export const UUID_PATTERN = UUID;
// Django's <sha1:unique_key> converter: [A-z0-9]{40}.
export const UNIQUE_KEY_PATTERN = '^[A-z0-9]{40}$';

const STATUSES = ['new', 'up', 'grace', 'down', 'paused'];
const nullable = (type: string, extra: Schema = {}): Schema => ({ type: [type, 'null'], ...extra });
const isoDate = 'Python isoformat() of a UTC time, e.g. 2026-01-05T10:00:00+00:00';

/** The keys every check has, in Healthchecks' order; `status` differs between versions. */
function checkSchema(statuses: string[], description: string): Schema {
  return {
    type: 'object',
    description,
    properties: {
      name: { type: 'string' },
      slug: { type: 'string' },
      tags: { type: 'string', description: 'Space-separated tags.' },
      desc: { type: 'string' },
      grace: { type: 'integer', description: 'Seconds.' },
      n_pings: { type: 'integer' },
      status: { type: 'string', enum: statuses },
      started: { type: 'boolean', description: 'The check has a start ping (a run is in progress).' },
      last_ping: nullable('string', { description: isoDate }),
      next_ping: nullable('string', { description: isoDate }),
      manual_resume: { type: 'boolean' },
      methods: { type: 'string', enum: ['', 'POST'] },
      subject: { type: 'string', description: 'success_kw when filter_subject is on, else "".' },
      subject_fail: { type: 'string', description: 'failure_kw when filter_subject is on, else "".' },
      start_kw: { type: 'string' },
      success_kw: { type: 'string' },
      failure_kw: { type: 'string' },
      filter_subject: { type: 'boolean' },
      filter_body: { type: 'boolean' },
      filter_http_body: { type: 'boolean' },
      filter_default_fail: { type: 'boolean' },
      badge_url: { type: 'string', format: 'uri' },
      last_duration: { type: 'integer', description: 'Whole seconds of the last run; absent when unknown or zero.' },
      uuid: { type: 'string', pattern: UUID, description: 'Read-write keys only.' },
      ping_url: { type: 'string', format: 'uri', description: 'Read-write keys only (PING_ENDPOINT + uuid).' },
      update_url: { type: 'string', format: 'uri', description: 'Read-write keys only; names the API version of the request.' },
      pause_url: { type: 'string', format: 'uri', description: 'Read-write keys only.' },
      resume_url: { type: 'string', format: 'uri', description: 'Read-write keys only.' },
      channels: { type: 'string', description: 'Read-write keys only: comma-separated channel UUIDs.' },
      unique_key: { type: 'string', pattern: UNIQUE_KEY_PATTERN, description: 'Read-only keys only, in place of uuid and the URLs.' },
      timeout: { type: 'integer', description: 'Simple checks only: seconds.' },
      schedule: { type: 'string', description: 'Cron and OnCalendar checks only.' },
      tz: { type: 'string', description: 'Cron and OnCalendar checks only.' },
    },
    required: ['name', 'slug', 'tags', 'desc', 'grace', 'n_pings', 'status', 'started', 'last_ping', 'next_ping', 'manual_resume', 'methods', 'subject', 'subject_fail', 'start_kw', 'success_kw', 'failure_kw', 'filter_subject', 'filter_body', 'filter_http_body', 'filter_default_fail', 'badge_url'],
    additionalProperties: false,
  };
}

const seconds: Schema = { type: 'integer', minimum: 60, maximum: 31_536_000 };
const upTo = (n: number): Schema => ({ type: 'string', maxLength: n });

export const healthchecksSchemas: Record<string, Schema> = {
  Check: checkSchema(STATUSES, 'A check as /api/v2/ and /api/v3/ show it.'),
  CheckV1: checkSchema([...STATUSES, 'started'], 'A check as /api/v1/ shows it: status "started" while a run is in progress.'),
  CheckList: { type: 'object', properties: { checks: { type: 'array', items: ref('Check') } }, required: ['checks'], additionalProperties: false },
  CheckListV1: { type: 'object', properties: { checks: { type: 'array', items: ref('CheckV1') } }, required: ['checks'], additionalProperties: false },
  CheckSpec: {
    type: 'object',
    description:
      'Fields of a check to create or change (Healthchecks\' Spec). Unknown keys are ignored. The first invalid field, in this order, ' +
      'is reported as 400 "json validation error: <field> <problem>". v1 and v2 derive `slug` from `name`; v3 takes `slug` as sent.',
    properties: {
      api_key: { type: 'string', description: 'The API key, when not sent as X-Api-Key.' },
      channels: { type: 'string', description: '"*" for every channel, "" for none, or comma-separated channel UUIDs or names.' },
      desc: { type: 'string' },
      failure_kw: upTo(200),
      filter_subject: { type: 'boolean' },
      filter_body: { type: 'boolean' },
      filter_http_body: { type: 'boolean' },
      filter_default_fail: { type: 'boolean' },
      grace: seconds,
      manual_resume: { type: 'boolean' },
      methods: { type: 'string', enum: ['', 'POST'] },
      name: upTo(100),
      schedule: { ...upTo(100), description: 'A cron or OnCalendar expression; makes the check a cron check.' },
      slug: { ...upTo(100), pattern: '^[a-z0-9_-]*$' },
      start_kw: upTo(200),
      subject: upTo(200),
      subject_fail: upTo(200),
      success_kw: upTo(200),
      tags: upTo(500),
      timeout: { ...seconds, description: 'Seconds; makes the check a simple check.' },
      tz: { type: 'string', description: 'An IANA time zone.' },
      unique: { type: 'array', items: { type: 'string', enum: ['name', 'slug', 'tags', 'timeout', 'grace'] }, description: 'POST /checks/ only: fields that find an existing check to update (200) instead of creating one (201).' },
    },
  },
  Ping: {
    type: 'object',
    properties: {
      type: { type: 'string', enum: ['success', 'start', 'fail', 'log', 'ign'] },
      date: { type: 'string', description: 'Python isoformat(), microseconds when non-zero.' },
      n: { type: 'integer' },
      scheme: { type: 'string' },
      remote_addr: nullable('string'),
      method: { type: 'string' },
      ua: { type: 'string' },
      rid: nullable('string'),
      body_url: nullable('string', { format: 'uri' }),
      duration: { type: 'number', description: 'Seconds since the matching start ping (two decimals); absent without one.' },
    },
    required: ['type', 'date', 'n', 'scheme', 'remote_addr', 'method', 'ua', 'rid', 'body_url'],
    additionalProperties: false,
  },
  PingList: { type: 'object', properties: { pings: { type: 'array', items: ref('Ping') } }, required: ['pings'], additionalProperties: false },
  Flip: {
    type: 'object',
    properties: { timestamp: { type: 'string', description: isoDate }, up: { type: 'integer', enum: [0, 1] } },
    required: ['timestamp', 'up'],
    additionalProperties: false,
  },
  FlipList: { type: 'object', properties: { flips: { type: 'array', items: ref('Flip') } }, required: ['flips'], additionalProperties: false },
  Channel: {
    type: 'object',
    properties: {
      id: { type: 'string', pattern: UUID },
      name: { type: 'string' },
      kind: { type: 'string', description: 'Healthchecks\' kind codes: "pd" for PagerDuty, "po" Pushover, "msteamsw" Teams, "gchat" Google Chat, else the kind\'s name.' },
    },
    required: ['id', 'name', 'kind'],
    additionalProperties: false,
  },
  ChannelList: { type: 'object', properties: { channels: { type: 'array', items: ref('Channel') } }, required: ['channels'], additionalProperties: false },
  BadgeUrls: {
    type: 'object',
    description: 'Badge URLs of one tag ("*": every check): two states (svg, json, shields) or three (…3).',
    properties: Object.fromEntries(['svg', 'svg3', 'json', 'json3', 'shields', 'shields3'].map((k) => [k, { type: 'string', format: 'uri' }])),
    required: ['svg', 'svg3', 'json', 'json3', 'shields', 'shields3'],
    additionalProperties: false,
  },
  BadgeList: {
    type: 'object',
    properties: { badges: { type: 'object', additionalProperties: ref('BadgeUrls') } },
    required: ['badges'],
    additionalProperties: false,
  },
  BadgeJson: {
    type: 'object',
    properties: { status: { type: 'string', enum: ['up', 'late', 'down'] }, total: { type: 'integer' }, grace: { type: 'integer' }, down: { type: 'integer' } },
    required: ['status', 'total', 'grace', 'down'],
    additionalProperties: false,
  },
  ShieldsJson: {
    type: 'object',
    properties: { schemaVersion: { const: 1 }, label: { type: 'string' }, message: { type: 'string' }, color: { type: 'string', enum: ['success', 'important', 'critical'] } },
    required: ['schemaVersion', 'label', 'message', 'color'],
    additionalProperties: false,
  },
  Error: {
    type: 'object',
    description: 'A refusal. Where Healthchecks answers with an empty body (403, 404) we add the reason.',
    properties: { error: { type: 'string' } },
    required: ['error'],
    additionalProperties: false,
  },
};
