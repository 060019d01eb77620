// The one rule for read-only access, shared by every monitoring domain function and transport:
// Healthchecks answers a read-only key on a write endpoint (and on what it hides from such
// keys: URLs, channels, pings) with 401 "wrong api key". A read-only member is held to the same
// rule, but told what it is: FORBIDDEN, "read-only members cannot …" (they are signed in; no
// key is wrong).
import { forbidden, unauthenticated } from '../shared/errors.ts';
import type { ProjectAccess } from './context.ts';

/** The project id, when the caller may write; throws "wrong api key" (keys) or FORBIDDEN (members) otherwise. */
export function writableProject(access: ProjectAccess): string {
  if (access.readOnly) {
    throw access.actor.personId === null ? unauthenticated('wrong api key') : forbidden('read-only members can look but not change anything here');
  }
  return access.projectId;
}
