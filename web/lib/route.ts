// The address as state. The chosen project lives in the query string (?project=<uuid>: a link
// or a reload opens the same project), the screen within it in the hash (#/members,
// #/checks/<uniqueKey>), so screens link with plain `href="#/…"` and keep the project.
import { useEffect, useState } from 'preact/hooks';

export function useHash(): string {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const onChange = () => setHash(location.hash);
    addEventListener('hashchange', onChange);
    addEventListener('popstate', onChange);
    return () => {
      removeEventListener('hashchange', onChange);
      removeEventListener('popstate', onChange);
    };
  }, []);
  return hash;
}

/** The ?project= of the address, following back and forward. */
export function useProjectParam(): [string | null, (uuid: string, how?: 'push' | 'replace') => void] {
  const read = () => new URLSearchParams(location.search).get('project');
  const [project, setProject] = useState(read);
  useEffect(() => {
    const onPop = () => setProject(read());
    addEventListener('popstate', onPop);
    return () => removeEventListener('popstate', onPop);
  }, []);
  const choose = (uuid: string, how: 'push' | 'replace' = 'push') => {
    const url = `${location.pathname}?project=${encodeURIComponent(uuid)}${how === 'replace' ? location.hash : ''}`;
    history[how === 'push' ? 'pushState' : 'replaceState'](null, '', url);
    setProject(uuid);
    // Other hooks (useHash) read the address again.
    dispatchEvent(new PopStateEvent('popstate'));
  };
  return [project, choose];
}

/** Leaves every screen: back to `/` with nothing chosen (signing out). */
export function resetAddress() {
  history.replaceState(null, '', '/');
  dispatchEvent(new PopStateEvent('popstate'));
}
