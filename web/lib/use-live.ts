// A view's hold on a Live connection: made when its `key` (an API key, or null for the session
// cookie) is known, closed when the view goes; and the connection's state for a badge.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { connectLive, type Live, type LiveState } from './live.ts';

export function useLive(key: string | null, deps: unknown[] = []): Live {
  const live = useMemo(() => connectLive(key), [key, ...deps]);
  useEffect(() => () => live.close(), [live]);
  return live;
}

export function useLiveState(live: Live): LiveState {
  const [state, setState] = useState<LiveState>(live.state);
  useEffect(() => live.onState(setState), [live]);
  return state;
}
