// What every screen of a project is handed: whose project it shows and how to reach it.
// Two ways in: an API key (a wall display; the key's own project) or a signed-in person's
// membership (the session cookie; the project named by its UUID in every request).
import type { ProjectRole } from '../../src/generated/graphql/graphql.ts';
import { query } from '../lib/graphql.ts';
import { OPEN_PROJECT } from './operations.ts';

export interface Session {
  /** The API key, or null for a signed-in person (the cookie goes with every request). */
  key: string | null;
  /** The project's UUID; null for a key (the server takes the key's own project). */
  project: string | null;
  projectName: string;
  /** The caller's role: a read-write key acts as REGULAR, a read-only key as READONLY. */
  role: ProjectRole;
}

/** Checks, channels: everyone but read-only members and keys. */
export const mayWrite = (s: Pick<Session, 'role'>) => s.role !== 'READONLY';

/** Opens the key's project, or (key null) the signed-in person's project `project`. */
export async function openSession(key: string | null, project: string | null = null): Promise<Session> {
  const data = await query(OPEN_PROJECT, { project }, key);
  return { key, project: key ? null : data.project.uuid, projectName: data.project.name, role: data.project.role };
}
