// Open subscriptions of a signed-in person end when their access does: a session ended (signed
// out, "sign out everywhere", expired) or a membership removed or lowered. The identity room
// publishes accessChanged (on every instance, through the fan-out); each of the person's
// subscriptions then re-checks its own access, and if it is gone delivers one last result, an
// error, and completes. An API key's subscriptions are left as they are (keys are revoked by
// rotation, which the next request sees).
import type { GraphQLContext } from './context.ts';
import type { AccessChangedEvent } from '../../events/bus.ts';
import { sessionIsLive } from '../../identity/sessions.ts';
import { roleIn } from '../../identity/memberships.ts';
import { unauthenticated, type DomainError } from '../../shared/errors.ts';

const ENDED = Symbol('access ended');
interface Ended {
  [ENDED]: DomainError;
}

const isEnded = (value: unknown): value is Ended => typeof value === 'object' && value !== null && ENDED in value;

/** A subscription field's resolve, which reports the end of access as the field's error. */
export const unlessEnded =
  <E, R>(resolve: (event: E) => R) =>
  (event: E): R => {
    if (isEnded(event)) throw event[ENDED];
    return resolve(event);
  };

export interface GuardOptions {
  /** The project the subscription reads (null: none, e.g. campus records). */
  projectId: string | null;
  /** The subscription needs more than read-only access (pings, notification outcomes). */
  needsWrite?: boolean;
}

/** `events` for as long as the signed-in caller keeps the access it was opened with. */
export async function whileAccessLasts<T>(ctx: GraphQLContext, events: AsyncIterableIterator<T>, options: GuardOptions): Promise<AsyncIterableIterator<T>> {
  const me = await ctx.signedIn();
  if (!me) return events;
  const { db, settings, clock, events: bus } = ctx.identity;
  const stillAllowed = async (e: AccessChangedEvent) => {
    if (!(await sessionIsLive(db, settings.sessions, me.sessionId, clock.now()))) return false;
    if (!options.projectId || (e.projectId !== null && e.projectId !== options.projectId)) return true;
    const role = await roleIn(db, options.projectId, me.personId);
    return role !== null && (!options.needsWrite || role !== 'readonly');
  };
  let ended: Ended | null = null;
  let waiting: ((r: IteratorResult<T>) => void) | null = null;
  const listener = (e: AccessChangedEvent) => {
    if (e.personId !== me.personId || ended) return;
    void stillAllowed(e)
      .catch(() => false)
      .then((ok) => {
        if (ok || ended) return;
        ended = { [ENDED]: unauthenticated('your access has ended (signed out, or removed from the project)') };
        stop();
        // A next() already waiting gets the error at once; the source is then closed.
        waiting?.({ value: ended as unknown as T, done: false });
        waiting = null;
        void events.return?.();
      });
  };
  const stop = () => bus.off('accessChanged', listener);
  bus.on('accessChanged', listener);
  let delivered = false;
  const guarded: AsyncIterableIterator<T> = {
    next() {
      if (ended) {
        if (delivered) return Promise.resolve({ value: undefined, done: true });
        delivered = true;
        return Promise.resolve({ value: ended as unknown as T, done: false });
      }
      return new Promise<IteratorResult<T>>((resolve, reject) => {
        waiting = (r) => {
          delivered = delivered || isEnded(r.value);
          resolve(r);
        };
        events.next().then(
          (r) => {
            if (waiting === null) return; // access ended meanwhile: answered already
            waiting = null;
            if (r.done) stop();
            resolve(r);
          },
          (err) => {
            waiting = null;
            stop();
            reject(err);
          },
        );
      });
    },
    return() {
      stop();
      return events.return ? events.return() : Promise.resolve({ value: undefined, done: true });
    },
    throw(err?: unknown) {
      stop();
      return events.throw ? events.throw(err) : Promise.reject(err);
    },
    [Symbol.asyncIterator]() {
      return guarded;
    },
  };
  return guarded;
}
