// Who may see a person's contact points and relationships (and so their guardians and wards):
// Staff, the person themselves, and a guardian for their ward: the people Slate's people browse
// shows a non-Staff caller (PeopleRequestHandler: themselves and GuardianRelationship::getWardIds).
// Slate's /contact-points and /relationships handlers are Staff-only; decisions.md records why
// we open reading to those people on every path. Writing stays Staff's.
import type { Viewer } from './viewer.ts';
import { isStaff, LOGIN_REQUIRED, ACCESS_DENIED } from './access.ts';
import type { CampusDeps } from './lookup.ts';
import { forbidden, unauthenticated } from '../shared/errors.ts';

export const GUARDIAN_CLASS = 'Emergence\\People\\GuardianRelationship';
export const RELATIONSHIP_CLASS = 'Emergence\\People\\Relationship';

/** The IDs among `personIds` whose contact points and relationships `viewer` may read (one query at most). */
export async function readablePeople(deps: CampusDeps, viewer: Viewer, personIds: readonly number[]): Promise<Set<number>> {
  if (isStaff(viewer)) return new Set(personIds);
  if (viewer.personId === null || !viewer.level) return new Set();
  const out = new Set(personIds.filter((id) => id === viewer.personId));
  const others = [...new Set(personIds.filter((id) => id !== viewer.personId))];
  if (others.length) {
    // A guardian row is the ward's: PersonID is the ward, RelatedPersonID the guardian.
    const wards = await deps.db.personRelationship.findMany({
      where: { Class: GUARDIAN_CLASS, RelatedPersonID: viewer.personId, PersonID: { in: others } },
      select: { PersonID: true },
    });
    for (const w of wards) out.add(w.PersonID);
  }
  return out;
}

/** Refuses (401 anonymous, 403 others) a caller who may not read `personId`'s contact points. */
export async function requireContactsReadable(deps: CampusDeps, viewer: Viewer, personId: number): Promise<void> {
  if (!viewer.level) throw unauthenticated(LOGIN_REQUIRED);
  if (!(await readablePeople(deps, viewer, [personId])).has(personId)) throw forbidden(ACCESS_DENIED);
}

/** The people a non-Staff caller may list at /people: themselves and their wards (GuardianRelationship::getWardIds). */
export async function selfAndWards(deps: CampusDeps, viewer: Viewer): Promise<number[]> {
  if (viewer.personId === null) return [];
  const wards = await deps.db.personRelationship.findMany({ where: { Class: GUARDIAN_CLASS, RelatedPersonID: viewer.personId }, select: { PersonID: true } });
  return [viewer.personId, ...wards.map((w) => w.PersonID)];
}
