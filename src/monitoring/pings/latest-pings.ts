// The windowed ping listing as a port (pings/service.ts latestPings asks it; latest-pings-store.ts
// answers it in each database's SQL), with the Healthchecks limits both sides share.
import type { Ping } from '../../generated/prisma/client.ts';
import type { Db } from '../../db/client.ts';

/** Healthchecks pairs a completion with a start at most 72 hours before it. */
export const MAX_DURATION_MS = 72 * 3600 * 1000;
/** Healthchecks never lists more than 1000 pings of a check. */
export const PING_LIST_MAX = 1000;
/** Beyond this many look-backs in one listing, Healthchecks shows no durations at all. */
export const MAX_LOOK_BACKS = 10;

/** A listed ping: every column, the body only when asked for (undefined otherwise). */
export type LatestPing = Omit<Ping, 'body'> & {
  body?: Uint8Array | null;
  /** Whether a body is stored (set by latestPings; a live ping event carries its body instead). */
  hasBody?: boolean;
  lookBackMs?: number | null;
};

/** A listed ping as the statement returns it (drivers differ in how they return booleans and counts). */
export type LatestPingRow = Omit<LatestPing, 'hasBody' | 'lookBackMs'> & {
  hasBody: number | bigint | boolean;
  lookedBack: number | bigint | boolean;
  lookBackMs: number | bigint | null;
};

export interface LatestPingsRequest {
  projectId: string;
  checkIds: readonly number[];
  /** At most this many of each check's newest pings (and at most its project's pingLogLimit). */
  first: number;
  withBody: boolean;
  /** The row id, scheme, remoteAddr, method, ua, exitStatus and hasBody; without them none of those is read. */
  withDetails: boolean;
}

export type LatestPingsQuery = (db: Db, request: LatestPingsRequest) => Promise<LatestPingRow[]>;

