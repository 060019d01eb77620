// Screens other than the first are loaded when visited (esbuild splits them into their own
// chunks): the first page stays small. `lazyScreen(() => import('./X.tsx'), 'X')` gives a
// component that shows "Loading…" until its chunk arrives, and a message if it cannot.
import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';

export function lazyScreen<P extends object, M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string): ComponentType<P> {
  let loaded: ComponentType<P> | null = null;
  let pending: Promise<ComponentType<P>> | null = null;
  const fetchIt = () => (pending ??= load().then((module) => (loaded = module[name] as ComponentType<P>)));
  return function LazyScreen(props: P) {
    const [Screen, setScreen] = useState<ComponentType<P> | null>(() => loaded);
    const [failed, setFailed] = useState<string | null>(null);
    useEffect(() => {
      if (Screen) return;
      let active = true;
      fetchIt().then(
        (component) => active && setScreen(() => component),
        (err: unknown) => {
          // A new deployment removed the old chunk: a reload fetches the current index.
          pending = null;
          if (active) setFailed(err instanceof Error ? err.message : String(err));
        },
      );
      return () => {
        active = false;
      };
    }, [Screen]);
    if (failed) return <p class="error" role="alert">This screen could not be loaded ({failed}). Reload the page to try again.</p>;
    return Screen ? <Screen {...props} /> : <p>Loading…</p>;
  };
}
