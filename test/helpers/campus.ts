// Campus records for domain tests, made through the domain's own createRecord (so handles,
// defaults and references are as the APIs make them), and viewers at each level.
import type { World } from './world.ts';
import type { Viewer } from '../../src/campus/auth.ts';
import type { AccountLevel, KindName } from '../../src/campus/kinds.ts';
import { KINDS } from '../../src/campus/kinds.ts';
import type { CampusDeps, CampusRecord } from '../../src/campus/lookup.ts';
import { createRecord } from '../../src/campus/service.ts';

/** The campus services the transports are given. */
export const campusDeps = (w: World): CampusDeps => w.app.services.campus;

export const anonymousViewer: Viewer = { personId: null, level: null };

/** A new person (a service account) at `level`, as a viewer. */
export async function viewerAt(w: World, level: AccountLevel): Promise<Viewer> {
  const { person_id } = await w.campusToken(level);
  return { personId: person_id, level };
}

/** Creates a record of `kind` as `viewer` (Staff unless told). */
export async function record(w: World, viewer: Viewer, kind: KindName, input: Record<string, unknown>): Promise<CampusRecord> {
  return createRecord(campusDeps(w), viewer, KINDS[kind], input);
}
