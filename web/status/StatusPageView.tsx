// A public status page: read without a key, kept current by statusPageChanged (which sends the
// whole page, as the server re-reads it, after every change of the listed checks).
import { useEffect, useState } from 'preact/hooks';
import type { CheckStatus } from '../../src/generated/graphql/graphql.ts';
import { LiveBadge, Status } from '../components/Status.tsx';
import { when } from '../lib/format.ts';
import { connectLive, type LiveState } from '../lib/live.ts';
import { request } from '../lib/graphql.ts';

interface StatusPage {
  title: string;
  checks: Array<{ name: string; status: CheckStatus; lastPing: string | null }>;
}

const FIELDS = 'title checks { name status lastPing }';
const PAGE = `query StatusPage($slug: String!) { statusPage(slug: $slug) { ${FIELDS} } }`;
const CHANGED = `subscription StatusPageChanged($slug: String!) { statusPageChanged(slug: $slug) { ${FIELDS} } }`;

export function StatusPageView({ slug }: { slug: string }) {
  const [page, setPage] = useState<StatusPage | null>(null);
  const [missing, setMissing] = useState(false);
  const [liveState, setLiveState] = useState<LiveState>('connecting');

  useEffect(() => {
    const show = (data: { statusPage?: StatusPage | null; statusPageChanged?: StatusPage | null } | null, errors: Array<{ extensions?: { code?: string } }>) => {
      const next = data?.statusPage ?? data?.statusPageChanged;
      if (next) return setPage(next);
      if (errors.some((e) => e.extensions?.code === 'NOT_FOUND')) setMissing(true);
    };
    // The first paint from a plain request; the subscription sends the page again on connecting
    // (and from then on, so a late answer to a request must not overwrite a page pushed since).
    let pushes = 0;
    let active = true;
    const read = () => {
      const before = pushes;
      // A failed read (the server still restarting) leaves the page to the subscription.
      request<{ statusPage: StatusPage | null }>(PAGE, { slug }).then(({ data, errors }) => active && pushes === before && show(data, errors), () => {});
    };
    read();
    const live = connectLive(null);
    // After a reconnection, read again: changes while disconnected were not pushed, and the
    // server need not send the page on resubscribing (a subscriber that joins an identical
    // subscription still running, e.g. its own whose dropped socket the server has not noticed
    // yet, gets the next change only).
    let connectedBefore = false;
    const stopState = live.onState((state) => {
      setLiveState(state);
      if (state !== 'websocket' && state !== 'sse') return;
      if (connectedBefore) read();
      connectedBefore = true;
    });
    const stop = live.subscribe<{ statusPageChanged: StatusPage }>(CHANGED, { slug }, (data, errors) => {
      pushes++;
      show(data, errors);
    });
    return () => {
      active = false;
      stop();
      stopState();
      live.close();
    };
  }, [slug]);

  useEffect(() => {
    document.title = page ? `${page.title} status` : 'Status';
  }, [page?.title]);

  if (missing) return <main class="narrow"><h1>Status page not found</h1><p class="hint">No status page is published at this address.</p></main>;
  if (!page) return <main class="narrow"><p>Loading…</p></main>;
  const down = page.checks.filter((c) => c.status === 'DOWN').length;
  return (
    <main class="narrow status-page">
      <header class="bar plain">
        <h1>{page.title}</h1>
        <LiveBadge state={liveState} />
      </header>
      <p class={`summary ${down ? 'summary-down' : 'summary-up'}`} data-summary={down ? 'down' : 'up'}>
        {down ? `${down} of ${page.checks.length} ${page.checks.length === 1 ? 'check is' : 'checks are'} down` : 'All checks are operational'}
      </p>
      <table class="checks">
        <thead><tr><th>Check</th><th>Status</th><th>Last ping</th></tr></thead>
        <tbody>
          {page.checks.map((c, i) => (
            <tr key={`${i}-${c.name}`} data-check={c.name}>
              <td>{c.name || '(unnamed)'}</td>
              <td><Status status={c.status} /></td>
              <td>{when(c.lastPing, 'never')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </main>
  );
}
