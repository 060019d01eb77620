// The one small interface the domains and transports use to ask "who is this, what may they do
// here": a person signed in through a browser session, and their access to one project through
// their membership. Transports hand in the session cookie's value; nothing else reads cookies
// or the identity tables.
import type { ProjectAccess } from '../monitoring/context.ts';
import type { Viewer } from '../campus/viewer.ts';
import type { IdentityDeps } from './context.ts';
import { browserSession, type BrowserSession } from './sessions.ts';
import { memberAccess, projectsOf } from './memberships.ts';

export type SignedIn = BrowserSession;

/** The person behind a session cookie's value; null when there is none or it has ended. */
export async function signedInBy(deps: IdentityDeps, sessionToken: string | null): Promise<SignedIn | null> {
  return sessionToken ? browserSession(deps.db, deps.settings.sessions, sessionToken, deps.clock.now()) : null;
}

/** The person's access to a project (their role there); not a member: "project not found". */
export function projectAccessOf(deps: IdentityDeps, person: SignedIn, projectId: string): Promise<ProjectAccess> {
  return memberAccess(deps.db, projectId, { id: person.personId, username: person.username });
}

/** The projects the person can read. */
export async function readableProjectIds(deps: IdentityDeps, person: SignedIn): Promise<string[]> {
  return (await projectsOf(deps.db, person.personId)).map((m) => m.project.id);
}

/** The same person as a campus viewer: one identity, their account level governing records. */
export const campusViewerOf = (person: SignedIn): Viewer => ({ personId: person.personId, level: person.level });
