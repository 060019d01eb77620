// The Healthchecks database behind a dumpdata fixture: Django's tables and columns for the models
// the importer reads (api_check, api_channel_checks, accounts_project, auth_user…), in SQLite's
// storage (datetimes as UTC text, durations as microseconds, UUIDs as 32 hex digits, booleans as
// 0/1) or PostgreSQL's types (timestamptz, interval, uuid, bytea). Built from the same JSON the
// dumpdata tests read, so both sources describe one instance.
import Database from 'better-sqlite3';
import pg from 'pg';

type ColumnType = 'id' | 'int' | 'text' | 'bool' | 'datetime' | 'duration' | 'uuid' | 'blob' | 'user' | 'fk';
type TableSpec = { table: string; model: string; columns: Record<string, ColumnType> };

const TABLES: TableSpec[] = [
  {
    table: 'auth_user',
    model: 'auth.user',
    columns: { id: 'id', password: 'text', last_login: 'datetime', is_superuser: 'bool', username: 'text', first_name: 'text', last_name: 'text', email: 'text', is_staff: 'bool', is_active: 'bool', date_joined: 'datetime' },
  },
  {
    table: 'accounts_profile',
    model: 'accounts.profile',
    columns: {
      id: 'id', user: 'user', next_report_date: 'datetime', reports: 'text', nag_period: 'duration', next_nag_date: 'datetime', ping_log_limit: 'int', check_limit: 'int',
      token: 'text', sms_limit: 'int', sms_sent: 'int', call_limit: 'int', calls_sent: 'int', sort: 'text', last_active_date: 'datetime', tz: 'text', theme: 'text', totp: 'text', totp_created: 'datetime',
    },
  },
  {
    table: 'accounts_project',
    model: 'accounts.project',
    columns: { id: 'id', code: 'uuid', name: 'text', owner: 'user', api_key: 'text', api_key_readonly: 'text', badge_key: 'text', ping_key: 'text', show_slugs: 'bool' },
  },
  { table: 'accounts_member', model: 'accounts.member', columns: { id: 'id', user: 'user', project: 'fk', transfer_request_date: 'datetime', role: 'text' } },
  { table: 'accounts_credential', model: 'accounts.credential', columns: { id: 'id', code: 'uuid', name: 'text', user: 'user', created: 'datetime', data: 'blob' } },
  {
    table: 'api_check',
    model: 'api.check',
    columns: {
      id: 'id', name: 'text', slug: 'text', tags: 'text', code: 'uuid', desc: 'text', project: 'fk', created: 'datetime', kind: 'text', timeout: 'duration', grace: 'duration',
      schedule: 'text', tz: 'text', filter_subject: 'bool', filter_body: 'bool', filter_http_body: 'bool', filter_default_fail: 'bool', start_kw: 'text', success_kw: 'text',
      failure_kw: 'text', methods: 'text', manual_resume: 'bool', badge_key: 'uuid', n_pings: 'int', last_ping: 'datetime', last_start: 'datetime', last_start_rid: 'uuid',
      last_duration: 'duration', has_confirmation_link: 'bool', alert_after: 'datetime', status: 'text',
    },
  },
  {
    table: 'api_channel',
    model: 'api.channel',
    columns: { id: 'id', name: 'text', code: 'uuid', project: 'fk', created: 'datetime', kind: 'text', value: 'text', email_verified: 'bool', disabled: 'bool', last_notify: 'datetime', last_notify_duration: 'duration', last_error: 'text' },
  },
  {
    table: 'api_ping',
    model: 'api.ping',
    columns: { id: 'id', n: 'int', owner: 'fk', created: 'datetime', kind: 'text', scheme: 'text', remote_addr: 'text', method: 'text', ua: 'text', body_raw: 'blob', object_size: 'int', exitstatus: 'int', rid: 'uuid' },
  },
  { table: 'api_flip', model: 'api.flip', columns: { id: 'id', owner: 'fk', created: 'datetime', processed: 'datetime', old_status: 'text', new_status: 'text', reason: 'text' } },
  { table: 'api_notification', model: 'api.notification', columns: { id: 'id', code: 'uuid', owner: 'fk', check_status: 'text', channel: 'fk', created: 'datetime', error: 'text' } },
];

interface DumpObject {
  model: string;
  pk: number;
  fields: Record<string, unknown>;
}

type Dialect = 'sqlite' | 'postgres';

const SQL_TYPES: Record<Dialect, Record<ColumnType, string>> = {
  sqlite: { id: 'integer NOT NULL PRIMARY KEY AUTOINCREMENT', int: 'integer', text: 'varchar(500)', bool: 'bool', datetime: 'datetime', duration: 'bigint', uuid: 'char(32)', blob: 'BLOB', user: 'integer', fk: 'bigint' },
  postgres: { id: 'bigint PRIMARY KEY', int: 'integer', text: 'text', bool: 'boolean', datetime: 'timestamp with time zone', duration: 'interval', uuid: 'uuid', blob: 'bytea', user: 'integer', fk: 'bigint' },
};

const column = (name: string, type: ColumnType) => (type === 'user' || type === 'fk' ? `${name}_id` : name);

/** dumpdata's "[D ]HH:MM:SS[.ffffff]" in microseconds. */
function micros(text: string): number {
  const m = /^(?:(-?\d+) )?(\d\d):(\d\d):(\d\d)(?:\.(\d+))?$/.exec(text)!;
  const seconds = Number(m[1] ?? 0) * 86400 + Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4]);
  return seconds * 1e6 + Number((m[5] ?? '').padEnd(6, '0'));
}

function value(dialect: Dialect, type: ColumnType, v: unknown, userIds: Map<string, number>): unknown {
  if (v === null || v === undefined) return null;
  switch (type) {
    case 'bool':
      return dialect === 'sqlite' ? (v ? 1 : 0) : Boolean(v);
    case 'datetime':
      // Django on SQLite: "2026-01-05 03:00:00.123000" (UTC, naive).
      return dialect === 'sqlite' ? new Date(String(v)).toISOString().replace('T', ' ').replace('Z', '000') : String(v);
    case 'duration':
      return dialect === 'sqlite' ? micros(String(v)) : `${micros(String(v)) / 1e6} seconds`;
    case 'uuid':
      return dialect === 'sqlite' ? String(v).replace(/-/g, '') : String(v);
    case 'blob':
      return Buffer.from(String(v), 'base64');
    case 'user':
      return Array.isArray(v) ? userIds.get(String(v[0])) : v;
    default:
      return v;
  }
}

/** Every table's CREATE and the rows' INSERTs (with parameters) for the dump. */
function statements(dialect: Dialect, dump: DumpObject[]) {
  const userIds = new Map(dump.filter((o) => o.model === 'auth.user').map((o) => [String(o.fields.username), o.pk]));
  const p = (i: number) => (dialect === 'sqlite' ? '?' : `$${i}`);
  const out: Array<{ sql: string; params: unknown[] }> = [];
  for (const spec of TABLES) {
    const cols = Object.entries(spec.columns).map(([name, type]) => `"${column(name, type)}" ${SQL_TYPES[dialect][type]}`);
    out.push({ sql: `CREATE TABLE "${spec.table}" (${cols.join(', ')})`, params: [] });
    for (const o of dump.filter((x) => x.model === spec.model)) {
      const entries = Object.entries(spec.columns).filter(([name]) => name === 'id' || name in o.fields);
      const names = entries.map(([name, type]) => `"${column(name, type)}"`);
      const params = entries.map(([name, type]) => (name === 'id' ? o.pk : value(dialect, type, o.fields[name], userIds)));
      out.push({ sql: `INSERT INTO "${spec.table}" (${names.join(', ')}) VALUES (${params.map((_, i) => p(i + 1)).join(', ')})`, params });
    }
  }
  // Channel.checks: the many-to-many table Django names after both.
  out.push({ sql: `CREATE TABLE "api_channel_checks" ("id" ${SQL_TYPES[dialect].id}, "channel_id" bigint NOT NULL, "check_id" bigint NOT NULL)`, params: [] });
  let id = 1;
  for (const o of dump.filter((x) => x.model === 'api.channel')) {
    for (const checkId of o.fields.checks as number[]) out.push({ sql: `INSERT INTO "api_channel_checks" ("id", "channel_id", "check_id") VALUES (${p(1)}, ${p(2)}, ${p(3)})`, params: [id++, o.pk, checkId] });
  }
  return out;
}

/** Writes the instance's SQLite database to `file`. */
export function writeSqliteInstance(file: string, dump: DumpObject[]) {
  const db = new Database(file);
  try {
    db.transaction(() => {
      for (const s of statements('sqlite', dump)) db.prepare(s.sql).run(...s.params);
    })();
  } finally {
    db.close();
  }
}

/** Creates the instance's tables in the (empty) PostgreSQL database at `url`. */
export async function writePostgresInstance(url: string, dump: DumpObject[]) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const s of statements('postgres', dump)) await client.query(s.sql, s.params);
  } finally {
    await client.end();
  }
}
