// The project's checks, read in pages and then kept current by the checkChanged subscription; and
// for callers who may read them, the project's channels (which alert for which check). Nothing
// polls: after a reconnection everything is read again (changes made meanwhile were not pushed).
// Pushes are applied once per animation frame, all that came since in one new list: at 50 flips
// a second that is one render a frame instead of one a message (issue #25).
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { query, RequestError } from '../lib/graphql.ts';
import type { Live } from '../lib/live.ts';
import { backoff } from '../lib/backoff.ts';
import type { Session } from '../dashboard/session.ts';
import { subscribe } from './subscribe.ts';
import type { ChecksChangedSubscription } from '../../src/generated/graphql/graphql.ts';
import { CHECKS_CHANGED, CHECKS_CHANNELS, CHECKS_LIST, type CheckSummary, type ProjectChannel } from './operations.ts';

type Change = ChecksChangedSubscription['checkChanged']['change'];

/**
 * `list` with the pushed changes applied (the last one per check: each carries the whole
 * check). Unchanged checks keep their objects, so their rows know they need not render.
 */
function applyChanges(list: CheckSummary[] | null, changes: ReadonlyMap<string, { change: Change; check: CheckSummary }>): CheckSummary[] | null {
  if (!list || !changes.size) return list;
  let next = list;
  for (const [uniqueKey, { change, check }] of changes) {
    if (change === 'DELETED') {
      next = next.filter((c) => c.uniqueKey !== uniqueKey);
      continue;
    }
    const at = next.findIndex((c) => c.uniqueKey === uniqueKey);
    if (next === list) next = [...list];
    if (at < 0) next.push(check);
    else next[at] = check;
  }
  return next;
}

async function allChecks(session: Session, writer: boolean): Promise<CheckSummary[]> {
  const checks: CheckSummary[] = [];
  let after: string | null = null;
  do {
    const page: Awaited<ReturnType<typeof readPage>> = await readPage(session, writer, after);
    checks.push(...page.nodes);
    after = page.hasNextPage ? page.endCursor : null;
  } while (after);
  return checks;
}
const readPage = async (session: Session, writer: boolean, after: string | null) => (await query(CHECKS_LIST, { project: session.project, after, writer }, session.key)).project.checks;

/** The server refused the caller: trying again cannot help. */
export const refused = (err: unknown) => err instanceof RequestError && (err.code === 'UNAUTHENTICATED' || err.code === 'FORBIDDEN' || (err.code === 'NOT_FOUND' && /project/i.test(err.message)));

export interface ChecksState {
  checks: CheckSummary[] | null;
  /** null until read, or for callers who may not see them. */
  channels: ProjectChannel[] | null;
  error: string | null;
  /** A check as a mutation returned it, before (or instead of) its checkChanged event. */
  patch(uniqueKey: string, change: Partial<CheckSummary>): void;
}

/** `writer`: the caller may read channels (read-write keys, members other than read-only). */
export function useChecks(session: Session, live: Live, writer: boolean, onRefused?: () => void): ChecksState {
  const [checks, setChecks] = useState<CheckSummary[] | null>(null);
  const [channels, setChannels] = useState<ProjectChannel[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Pushed changes not yet applied, by check (a later push of the same check replaces an earlier
  // one), and the animation frame that will apply them.
  const pending = useRef(new Map<string, { change: Change; check: CheckSummary }>());
  const frame = useRef<number | undefined>(undefined);
  /** The changes pushed so far, taken out to be applied now. */
  const takePending = useCallback(() => {
    if (frame.current !== undefined) cancelAnimationFrame(frame.current);
    frame.current = undefined;
    const changes = new Map(pending.current);
    pending.current.clear();
    return changes;
  }, []);

  useEffect(() => {
    takePending();
    setChecks(null);
    setChannels(null);
    setError(null);
    // A read that failed on the way (no answer, a proxy's 502) is tried again, with backoff.
    let retry: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    let active = true;
    const reload = (): Promise<void> => {
      clearTimeout(retry);
      return Promise.all([allChecks(session, writer), writer ? query(CHECKS_CHANNELS, { project: session.project }, session.key) : null]).then(
        ([list, withChannels]) => {
          if (!active) return;
          failures = 0;
          // What was pushed before this answer is in it, or older than it.
          takePending();
          setChecks(list);
          setChannels(withChannels?.project.channels ?? null);
          setError(null);
        },
        (err: unknown) => {
          if (!active) return;
          setError(err instanceof Error ? err.message : String(err));
          if (refused(err)) return onRefused?.();
          // The server's answer to the request itself (an error with a code) stays the same.
          if (err instanceof RequestError && err.code) return;
          retry = setTimeout(() => void reload(), backoff(failures++, 10_000));
        },
      );
    };
    const stopChanges = subscribe(live, CHECKS_CHANGED, { project: session.project, writer }, (data) => {
      if (!data) return;
      const { change, check } = data.checkChanged;
      pending.current.set(check.uniqueKey, { change, check });
      // A hidden page gets no frames: its pushes wait (one per check at most) until it is shown.
      frame.current ??= requestAnimationFrame(() => {
        const changes = takePending();
        setChecks((list) => applyChanges(list, changes));
      });
    });
    let connectedBefore = false;
    const stopState = live.onState((state) => {
      if (state !== 'websocket' && state !== 'sse') return;
      if (connectedBefore) void reload();
      connectedBefore = true;
    });
    void reload();
    return () => {
      active = false;
      takePending();
      clearTimeout(retry);
      stopChanges();
      stopState();
    };
  }, [live, session, writer]);

  // Stable, so the rows it is handed to need not render again. Pushes that came before the
  // mutation's answer are applied first, as they would have been one at a time.
  const patch = useCallback(
    (uniqueKey: string, change: Partial<CheckSummary>) => {
      const changes = takePending();
      setChecks((list) => applyChanges(list, changes)?.map((c) => (c.uniqueKey === uniqueKey ? { ...c, ...change } : c)) ?? null);
    },
    [takePending],
  );
  return { checks, channels, error, patch };
}
