// Who is calling the campus domain: a person with an account level, or nobody. Its own module so
// that the rules that read it (access.ts, lookup.ts) need not import the sign-in code (auth.ts).
import type { AccountLevel } from './kinds.ts';

/** Who is calling: a person with an account level, or nobody (anonymous). */
export interface Viewer {
  personId: number | null;
  level: AccountLevel | null;
}
export const anonymous: Viewer = { personId: null, level: null };
