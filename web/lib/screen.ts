// What every screen of a signed-in person's project is handed (ProjectApp routes to them by the
// address's hash: #/checks…, #/integrations…, #/project, #/campus…, #/members, #/keys, #/audit).
import type { AccountState } from '../account/state.ts';
import type { Session } from '../dashboard/session.ts';
import type { Live } from './live.ts';

export interface ScreenProps {
  session: Session;
  live: Live;
  account: AccountState;
  /** The server refused the caller (a session ended elsewhere, a membership removed). */
  onRefused: () => void;
}

/** The path within the project, from the hash: `#/checks/abc` → ['checks', 'abc']; '' → []. */
export const hashPath = (hash: string): string[] => hash.replace(/^#\/?/, '').split('?')[0]!.split('/').filter(Boolean).map(decodeURIComponent);
