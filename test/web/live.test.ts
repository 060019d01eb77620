// The browser's live connection (web/lib/live.ts) run in Node against a real server: a view
// that registers for the connection state after the socket has connected still learns that it
// is live (the dashboard registers after its first paint; a fast connection can beat that).
import { beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { useWorld } from '../helpers/fixtures.ts';
import { connectLive, type LiveState } from '../../web/lib/live.ts';

const w = useWorld();
beforeAll(async () => {
  Object.assign(globalThis, { location: new URL(w.url), WebSocket });
});

describe('connectLive', () => {
  it('tells a listener registered after the connection that it is live, at once', async () => {
    const live = connectLive(w.alice.api_key);
    try {
      await expect.poll(() => live.state, { timeout: 5000 }).toBe('websocket');
      const seen: LiveState[] = [];
      const stop = live.onState((state) => seen.push(state));
      expect(seen).toEqual(['websocket']);
      stop();
    } finally {
      live.close();
    }
  });
});
