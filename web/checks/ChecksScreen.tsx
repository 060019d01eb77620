import type { ScreenProps } from '../lib/screen.ts';
import { Checks } from './Checks.tsx';

/** #/, #/checks, #/checks/new and #/checks/<uniqueKey> of a signed-in person's project. */
export function ChecksScreen({ session, live, onRefused }: ScreenProps) {
  return <Checks session={session} live={live} onRefused={onRefused} />;
}
