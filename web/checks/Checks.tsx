// The checks screens, routed by the address's hash: the list (#/ or #/checks, its filters in the
// hash query), "Add check" (#/checks/new) and a check's page (#/checks/<uniqueKey>). The same
// screens for a signed-in person's project and for the API-key wall display (`display`: looking
// only, whatever the key may do). The form and the check's page load when first visited.
import { Component, type ComponentChildren } from 'preact';
import { useHash } from '../lib/route.ts';
import type { Live } from '../lib/live.ts';
import { hashPath } from '../lib/screen.ts';
import { lazyScreen } from '../lib/lazy.tsx';
import { mayWrite, type Session } from '../dashboard/session.ts';
import { ChecksList } from './ChecksList.tsx';
import type { CheckPageProps } from './CheckPage.tsx';
import type { AddCheckProps } from './AddCheck.tsx';

const CheckPage = lazyScreen<CheckPageProps, typeof import('./CheckPage.tsx')>(() => import('./CheckPage.tsx'), 'CheckPage');
const AddCheck = lazyScreen<AddCheckProps, typeof import('./AddCheck.tsx')>(() => import('./AddCheck.tsx'), 'AddCheck');

export interface ChecksProps {
  session: Session;
  live: Live;
  /** The server refused the caller (a session ended elsewhere, a membership removed). */
  onRefused?: () => void;
  /** A wall display: no write controls, even with a read-write key. */
  display?: boolean;
}

/** What went wrong in a screen, said in place of it: never a blank page. */
class Contained extends Component<{ children: ComponentChildren; place: string }, { failed: string | null }> {
  state = { failed: null as string | null };
  static getDerivedStateFromError(err: unknown) {
    return { failed: err instanceof Error ? err.message : String(err) };
  }
  componentDidUpdate(previous: { place: string }) {
    // Another screen (or check) gets its own chance.
    if (previous.place !== this.props.place && this.state.failed) this.setState({ failed: null });
  }
  render() {
    if (this.state.failed) return <p class="error" role="alert">This screen failed to show ({this.state.failed}). <a href="#/checks">All checks</a> or reload the page.</p>;
    return this.props.children;
  }
}

export function Checks(props: ChecksProps) {
  const hash = useHash();
  return (
    <Contained place={hashPath(hash).join('/')}>
      <Routes {...props} hash={hash} />
    </Contained>
  );
}

function Routes({ session, live, onRefused, display = false, hash }: ChecksProps & { hash: string }) {
  const [screen, key] = hashPath(hash);
  // Read-write keys and members who may write may read pings, channels and notifications too.
  const canRead = mayWrite(session);
  const canEdit = canRead && !display;
  if (screen === 'checks' && key === 'new') {
    return canEdit ? <AddCheck session={session} /> : <p class="error" role="alert">Read-only: checks cannot be added here.</p>;
  }
  // Keyed: another check's page starts afresh (no pings or flips carried over).
  if (screen === 'checks' && key) return <CheckPage key={key} session={session} live={live} uniqueKey={key} canRead={canRead} canEdit={canEdit} onRefused={onRefused} />;
  return <ChecksList session={session} live={live} hash={hash} canEdit={canEdit} onRefused={onRefused} />;
}
