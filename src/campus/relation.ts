// What a relationship between campus records is (relationships.ts holds them all): its own
// module, so the files that define relations (notes, mappings, contact points, content items,
// media) and relationships.ts, which lists them, do not import each other.
import type { Viewer } from './auth.ts';
import type { KindName } from './kinds.ts';
import type { CampusDeps, CampusRecord } from './lookup.ts';

export type Loader = (deps: CampusDeps, records: CampusRecord[]) => Promise<Map<number, unknown>>;
export interface Relation {
  kind: KindName | 'GroupMember' | 'SectionParticipant' | 'Comment' | 'Tag' | 'ContactPoint' | 'Note' | 'ConnectorMapping' | 'ContentItem' | 'PersonRelationship' | 'Media';
  many: boolean;
  load: Loader;
  /** Visible only at this level or above (a person still sees their own). */
  readLevel?: 'Staff';
  /** With readLevel: not even the person themselves sees it (notes about them). */
  notSelf?: true;
  /** Each loaded row the viewer may see (a note's private draft: its author only); the rest are left out. */
  visibleTo?: (viewer: Viewer, row: unknown) => boolean;
  /** The records whose related rows the viewer may see (a person's contacts: Staff, themselves, their guardians); the others get none. */
  readable?: (deps: CampusDeps, viewer: Viewer, records: CampusRecord[]) => Promise<Set<number>>;
}
