// One subscription over Server-Sent Events (graphql-yoga's POST /graphql with Accept:
// text/event-stream), read with fetch so the key can go in a header: EventSource can send
// neither a header nor a body, which would put the key in the URL. A signed-in person's
// session cookie goes with it (same origin, a JSON POST: the cookie's CSRF rule lets it).
import type { GraphQLErrorShape } from './graphql.ts';

export interface SseHandlers {
  next(result: { data?: unknown; errors?: GraphQLErrorShape[] }): void;
  /** The stream ended: `error` is set when it broke rather than completed. */
  done(error?: unknown): void;
  /** The server answered and the stream is open. */
  open(): void;
}

export function subscribeSse(query: string, variables: Record<string, unknown>, key: string | null, handlers: SseHandlers): () => void {
  const abort = new AbortController();
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'text/event-stream' };
  if (key) headers['X-Api-Key'] = key;
  (async () => {
    const res = await fetch('/graphql', { method: 'POST', headers, credentials: 'same-origin', body: JSON.stringify({ query, variables }), signal: abort.signal });
    if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
    handlers.open();
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      // Events end with a blank line; ":" lines are keep-alives.
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const lines = buffer.slice(0, end).split('\n');
        buffer = buffer.slice(end + 2);
        const event = lines.find((l) => l.startsWith('event:'))?.slice(6).trim();
        const data = lines.filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join('\n');
        if (event === 'next' && data) handlers.next(JSON.parse(data));
        if (event === 'complete') return handlers.done();
      }
    }
    handlers.done(new Error('stream closed'));
  })().catch((err: unknown) => {
    if (!abort.signal.aborted) handlers.done(err);
  });
  return () => abort.abort();
}
