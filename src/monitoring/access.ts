// The one rule for read-only keys, shared by every monitoring domain function and transport:
// Healthchecks answers a read-only key on a write endpoint (and on what it hides from such
// keys: URLs, channels, pings) with 401 "wrong api key".
import { unauthenticated } from '../shared/errors.ts';
import type { ProjectAccess } from './context.ts';

/** The key's project id, when the key may write; throws UNAUTHENTICATED "wrong api key" otherwise. */
export function writableProject(access: ProjectAccess): string {
  if (access.readOnly) throw unauthenticated('wrong api key');
  return access.projectId;
}
