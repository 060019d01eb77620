// A signed-in session: the key, the project's name and what the server can say about linked
// records, opened once at sign-in and handed to every page of the dashboard.
import { query } from '../lib/graphql.ts';
import { SIGN_IN } from './operations.ts';
import { discoverRecords } from './records.ts';

export interface Session {
  key: string;
  projectName: string;
  /** The Check.records selection, '' while the server has none. */
  records: string;
}

export async function openSession(key: string): Promise<Session> {
  const data = await query<{ project: { name: string }; __type: { fields: Array<{ name: string }> } | null }>(SIGN_IN, {}, key);
  const records = await discoverRecords(data.__type?.fields.map((f) => f.name) ?? [], key);
  return { key, projectName: data.project.name, records };
}
