// What hangs off a person (contact points, relationships, notes, photos) changing is the person changing,
// for live subscribers: recordChanged "updated" with the person as stored, committed with the write
// (transaction.ts commitEvent) and published after it, so a page showing the person reads it again.
import type { CampusDeps } from './lookup.ts';
import { commitEvent } from './transaction.ts';

export async function peopleChanged(deps: CampusDeps, personIds: readonly number[]): Promise<void> {
  const ids = [...new Set(personIds)];
  if (!ids.length || !deps.events) return;
  const people = await deps.db.person.findMany({ where: { ID: { in: ids } }, orderBy: { ID: 'asc' } });
  for (const person of people) commitEvent(deps, 'recordChanged', { kind: 'Person', action: 'updated', record: person });
}
