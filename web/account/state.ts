// What the signed-in screens are handed about the person (Account.tsx makes it).
import type { ViewerData } from './operations.ts';

export interface AccountState {
  viewer: ViewerData;
  /** Reads the viewer again (after creating, joining or leaving a project). */
  refresh(): Promise<ViewerData | null>;
  signOut(): Promise<void>;
}
