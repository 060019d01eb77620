// Pieces every campus screen uses: what a failed request tells the person, the record changes
// pushed by the server (recordChanged), a heading that takes the focus when a screen opens, and
// the address's hash parameters (#/campus/people?q=ada&page=2).
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { messageOf, RequestError } from '../lib/graphql.ts';
import type { Live } from '../lib/live.ts';
import { RECORD_CHANGED, type CampusKind, type RecordChangedData } from './operations.ts';
import type { Me } from './levels.ts';

export interface CampusProps {
  me: Me;
  live: Live;
  /** A failed request as a message; a session that ended also tells the app (onRefused). */
  failure: (err: unknown) => string;
}

/** The server's message (its own words for refusals and validation), or what went wrong on the way. */
export function failureMessage(err: unknown): string {
  if (err instanceof RequestError) {
    if (err.code === 'UNAUTHENTICATED') return `${err.message}: you are signed out. Sign in again to continue.`;
    return err.message;
  }
  // fetch's TypeError: the server could not be reached at all.
  if (err instanceof TypeError) return 'The server could not be reached. Check the connection and try again.';
  return messageOf(err);
}

/**
 * A one-time message handed over in the address (…?saved=1 after a save, ?deleted=<title> after
 * a delete): read once, then taken out of the address so a reload does not say it again.
 */
export function useHandedOver(params: URLSearchParams, name: string): string | null {
  const value = useRef(params.get(name));
  useEffect(() => {
    if (value.current === null) return;
    const [path, query = ''] = location.hash.split('?');
    const rest = new URLSearchParams(query);
    rest.delete(name);
    const tail = rest.toString();
    // replaceState fires no hashchange: the screen stays as it is.
    history.replaceState(history.state, '', `${location.pathname}${location.search}${path}${tail ? `?${tail}` : ''}`);
  }, []);
  return value.current;
}

/** The parameters after `?` in the hash. */
export const hashParams = (hash: string) => new URLSearchParams(hash.includes('?') ? hash.slice(hash.indexOf('?') + 1) : '');

/**
 * Calls `onChange` with each pushed change of `kind` records (null after a reconnection: what
 * changed meanwhile was not pushed, so everything is read again).
 */
export function useRecordChanges(live: Live, kind: CampusKind, onChange: (change: { action: string; id: number } | null) => void, deps: unknown[]) {
  const latest = useRef(onChange);
  latest.current = onChange;
  useEffect(() => {
    const stop = live.subscribe<RecordChangedData>(RECORD_CHANGED, { kind }, (data) => {
      if (data) latest.current(data.recordChanged);
    });
    let connectedBefore = false;
    const stopState = live.onState((state) => {
      if (state !== 'websocket' && state !== 'sse') return;
      if (connectedBefore) latest.current(null);
      connectedBefore = true;
    });
    return () => {
      stop();
      stopState();
    };
  }, [live, kind, ...deps]);
}

/** The screen's heading; it takes the focus when the screen opens, so screen readers announce it. */
export function Heading({ children, level = 1 }: { children: ComponentChildren; level?: 1 | 2 }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => ref.current?.focus({ preventScroll: true }), []);
  return level === 1 ? <h1 ref={ref} tabIndex={-1}>{children}</h1> : <h2 ref={ref} tabIndex={-1}>{children}</h2>;
}

export function ErrorText({ message }: { message: string | null }) {
  return message ? <p class="error" role="alert">{message}</p> : null;
}

export function Notice({ message }: { message: string | null }) {
  return <p class="notice" role="status">{message ?? ''}</p>;
}

/** The outcome of a change: a message for the status line, or the server's error. */
export function useChange(reload: () => Promise<void>, failure: (err: unknown) => string) {
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (what: () => Promise<unknown>, message: string) => {
    setError(null);
    setDone(null);
    setBusy(true);
    try {
      await what();
      await reload();
      setDone(message);
      return true;
    } catch (err) {
      setError(failure(err));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { error, done, busy, run };
}

/**
 * A panel that reads its own list (a person's notes, a section's mappings): the list (undefined
 * while loading), and changes that read it again after they succeed (useChange).
 */
export function useLoaded<T>(read: () => Promise<T>, failure: (err: unknown) => string, deps: unknown[]) {
  const [value, setValue] = useState<T | undefined>(undefined);
  const [loadError, setLoadError] = useState<string | null>(null);
  const active = useRef(true);
  useEffect(() => () => void (active.current = false), []);
  const load = async () => {
    const next = await read();
    if (active.current) setValue(next);
  };
  useEffect(() => {
    load().catch((err) => active.current && setLoadError(failure(err)));
  }, deps);
  const change = useChange(load, failure);
  return { value, ...change, error: change.error ?? loadError };
}
