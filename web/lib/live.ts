// Live updates: every subscription goes over one graphql-ws WebSocket; when the socket cannot
// be opened at all (a proxy that refuses the upgrade, a hanging handshake), they all move to
// Server-Sent Events, one stream each. Nothing polls: a reconnection is announced through
// onState so views can re-read what they may have missed while disconnected. With a key, it
// goes in the connection's parameters (or the SSE request's header); without one, the browser's
// session cookie goes with the same-origin upgrade (or request), and each subscription names
// its project.
import { createClient, type Client } from 'graphql-ws';
import type { GraphQLErrorShape } from './graphql.ts';
import { subscribeSse } from './sse.ts';
import { backoff } from './backoff.ts';

export type LiveState = 'connecting' | 'websocket' | 'sse' | 'offline' | 'forbidden';

type Handler = (data: unknown, errors: GraphQLErrorShape[]) => void;

interface Sub {
  query: string;
  variables: Record<string, unknown>;
  handler: Handler;
  stop?: () => void;
  retry?: ReturnType<typeof setTimeout>;
  attempts: number;
}

export interface Live {
  /** Runs `handler` with each result's data (and errors) until the returned function is called. */
  subscribe<T>(query: string, variables: Record<string, unknown>, handler: (data: T | null, errors: GraphQLErrorShape[]) => void): () => void;
  /**
   * Calls `listener` with the current state at once, then with each change. At once, because the
   * socket starts connecting when the Live is made: a view that registers a moment later (after
   * its first paint) must not miss a connection that was already made.
   */
  onState(listener: (state: LiveState) => void): () => void;
  readonly state: LiveState;
  close(): void;
}

/** Closed by the server for a wrong key (graphql-ws's Forbidden): retrying cannot help. */
const FORBIDDEN = 4403;

export function connectLive(key: string | null, { wsTimeoutMs = 4000 } = {}): Live {
  const subs = new Set<Sub>();
  const listeners = new Set<(state: LiveState) => void>();
  let state: LiveState = 'connecting';
  let mode: 'ws' | 'sse' = 'ws';
  let closed = false;
  let everConnected = false;
  const setState = (next: LiveState) => {
    state = next;
    for (const l of listeners) l(next);
  };

  const deliver = (sub: Sub, result: { data?: unknown; errors?: readonly GraphQLErrorShape[] }) => sub.handler(result.data ?? null, [...(result.errors ?? [])]);

  const startWs = (sub: Sub) => {
    sub.stop = client.subscribe(
      { query: sub.query, variables: sub.variables },
      {
        next: (result) => deliver(sub, result as { data?: unknown; errors?: GraphQLErrorShape[] }),
        // An operation refused as a whole (its errors), or the socket closed for good.
        error: (err) => Array.isArray(err) && deliver(sub, { errors: err as GraphQLErrorShape[] }),
        complete: () => {},
      },
    );
  };

  const startSse = (sub: Sub) => {
    sub.stop = subscribeSse(sub.query, sub.variables, key, {
      open: () => {
        sub.attempts = 0;
        setState('sse');
      },
      next: (result) => deliver(sub, result),
      done: (error) => {
        // A stream that completed (e.g. after an error result) is over; a broken one comes back.
        if (error === undefined || closed || !subs.has(sub)) return;
        setState('offline');
        sub.retry = setTimeout(() => startSse(sub), backoff(sub.attempts++));
      },
    });
  };

  const fallBackToSse = () => {
    if (mode === 'sse' || closed) return;
    mode = 'sse';
    clearTimeout(wsTimer);
    dispose();
    for (const sub of subs) startSse(sub);
  };

  const client: Client = createClient({
    url: `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`,
    connectionParams: key ? { 'X-Api-Key': key } : {},
    lazy: false,
    // Connection failures are handled in on.closed (fallback, state); graphql-ws would also
    // print them with console.error.
    onNonLazyError: () => {},
    retryAttempts: Infinity,
    shouldRetry: () => true,
    retryWait: async (retries) => new Promise((resolve) => setTimeout(resolve, backoff(retries))),
    on: {
      connected: () => {
        everConnected = true;
        clearTimeout(wsTimer);
        setState('websocket');
      },
      closed: (event) => {
        if (closed || mode === 'sse') return;
        if ((event as CloseEvent | undefined)?.code === FORBIDDEN) return setState('forbidden');
        // Never connected: WebSockets do not get through here. Dropped later: graphql-ws
        // reconnects (and resubscribes) by itself.
        if (!everConnected) fallBackToSse();
        else setState('offline');
      },
    },
  });
  // dispose() rethrows the failure of a connection that never opened: it was handled above.
  const dispose = () => void Promise.resolve(client.dispose()).catch(() => {});
  const wsTimer = setTimeout(() => everConnected || fallBackToSse(), wsTimeoutMs);

  return {
    subscribe(query, variables, handler) {
      const sub: Sub = { query, variables, handler: handler as Handler, attempts: 0 };
      subs.add(sub);
      (mode === 'ws' ? startWs : startSse)(sub);
      return () => {
        subs.delete(sub);
        clearTimeout(sub.retry);
        sub.stop?.();
      };
    },
    onState(listener) {
      listeners.add(listener);
      listener(state);
      return () => listeners.delete(listener);
    },
    get state() {
      return state;
    },
    close() {
      closed = true;
      clearTimeout(wsTimer);
      for (const sub of subs) sub.stop?.();
      subs.clear();
      dispose();
    },
  };
}
