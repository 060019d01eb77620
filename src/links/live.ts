// Live changes of the checks linked to one record: the project's check events, kept to the
// checks linked to it. The set of linked checks is read once, then followed: a link changes
// only with a check's tags (a created or updated event), so only those events re-read it, once
// per event however many subscribers (pings and flips, the frequent ones, read nothing).
import type { Db } from '../db/client.ts';
import type { KindName } from '../campus/kinds.ts';
import { subscribe, type CheckChangedEvent, type GatewayEvents } from '../events/bus.ts';
import { linkedCheckIds, linksOfChecks, type LinkRow } from './store.ts';

const linksAtEvent = new WeakMap<CheckChangedEvent, Promise<LinkRow[]>>();

function linksOf(db: Db, event: CheckChangedEvent) {
  let links = linksAtEvent.get(event);
  if (!links) linksAtEvent.set(event, (links = linksOfChecks(db, [event.checkId])));
  return links;
}

/**
 * Check changes (pings, status changes, pauses, updates, deletes) of the project's checks linked
 * to the record. An update that links or unlinks a check is delivered too, so a client sees a
 * check arrive and leave.
 */
export async function linkedCheckChanges(
  deps: { db: Db; events: GatewayEvents },
  projectId: string,
  kind: KindName,
  recordId: number,
): Promise<AsyncIterableIterator<CheckChangedEvent>> {
  // Listening starts before the set is read: an event in between is judged against the set read.
  const source = subscribe(deps.events, 'checkChanged', (e) => e.projectId === projectId);
  let set: Set<number>;
  try {
    set = new Set(await linkedCheckIds(deps.db, projectId, kind, recordId));
  } catch (err) {
    await source.return!();
    throw err;
  }

  async function wanted(e: CheckChangedEvent): Promise<boolean> {
    const was = set.has(e.checkId);
    if (e.change === 'deleted') return set.delete(e.checkId);
    if (e.change !== 'created' && e.change !== 'updated') return was;
    const now = (await linksOf(deps.db, e)).some((l) => l.kind === kind && l.recordId === recordId);
    if (now) set.add(e.checkId);
    else set.delete(e.checkId);
    return was || now;
  }

  const iterator: AsyncIterableIterator<CheckChangedEvent> = {
    async next() {
      for (;;) {
        const r = await source.next();
        if (r.done || (await wanted(r.value))) return r;
      }
    },
    // Straight to the source: a pending next() ends at once, and the listener goes with it.
    return: () => source.return!(),
    throw: (err?: unknown) => source.throw!(err),
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}
