// A Healthchecks database read table by table (sqlite-source.ts, postgres-source.ts give the rows):
// Django's tables and columns (api_check, accounts_project, auth_user…; foreign keys as
// <field>_id, the channel assignments in api_channel_checks) in the importer's terms. Tables an
// older Healthchecks did not have are read as empty.
import { emptyInstance, SourceError, type HcInstance } from './model.ts';
import * as rows from './rows.ts';

export type Row = Record<string, unknown>;

export interface TableReader {
  /** Every row of the table, or null when the database has no such table. */
  rows(table: string): Promise<Row[] | null>;
  close(): Promise<void>;
}

/** The columns Django names <field>_id, as dumpdata names the fields. */
function fieldsOf(row: Row): Row {
  const out: Row = {};
  for (const [column, value] of Object.entries(row)) out[column.endsWith('_id') && column !== 'last_start_rid' ? column.slice(0, -3) : column] = value;
  return out;
}

export async function readTables(reader: TableReader, unit: rows.DurationUnit): Promise<HcInstance> {
  const table = async (name: string, required = false) => {
    const found = await reader.rows(name);
    if (found === null && required) throw new SourceError(`no table ${name}: is this a Healthchecks database?`);
    return (found ?? []).map(fieldsOf);
  };
  const out = emptyInstance();
  const users = await table('auth_user', true);
  const usernames = new Map(users.map((u) => [String(u.id), String(u.username)]));
  const named = (row: Row, field: string, model: string): Row => {
    const name = usernames.get(String(row[field]));
    if (name === undefined) throw new SourceError(`${model} #${String(row.id)}: user ${String(row[field])} does not exist`);
    return { ...row, [field]: name };
  };
  out.users = users.map((u) => rows.user(u));
  out.profiles = (await table('accounts_profile')).map((r) => rows.profile(named(r, 'user', 'accounts.profile'), r.id, unit));
  out.projects = (await table('accounts_project', true)).map((r) => rows.project(named(r, 'owner', 'accounts.project'), r.id));
  out.members = (await table('accounts_member')).map((r) => rows.member(named(r, 'user', 'accounts.member'), r.id));
  out.credentials = (await table('accounts_credential')).map((r) => rows.credential(named(r, 'user', 'accounts.credential'), r.id));
  out.checks = (await table('api_check', true)).map((r) => rows.check(r, r.id, unit));
  const assigned = new Map<string, number[]>();
  for (const a of await table('api_channel_checks')) {
    const list = assigned.get(String(a.channel)) ?? [];
    list.push(Number(a.check));
    assigned.set(String(a.channel), list);
  }
  out.channels = (await table('api_channel', true)).map((r) => rows.channel(r, r.id, assigned.get(String(r.id)) ?? []));
  out.pings = (await table('api_ping')).map((r) => rows.ping(r, r.id));
  out.flips = (await table('api_flip')).map((r) => rows.flip(r, r.id));
  out.notifications = (await table('api_notification')).map((r) => rows.notification(r, r.id));
  return out;
}
