// The dashboard's GraphQL documents and the shapes it reads from them. It uses the public API
// only, as any client would (schema.graphql).
import type { CheckStatus } from '../../src/generated/graphql/graphql.ts';

export interface LinkedRecord {
  __typename: string;
  label?: string | null;
}

export interface CheckSummary {
  uniqueKey: string;
  name: string;
  status: CheckStatus;
  lastPing: string | null;
  nextPing: string | null;
  tags: string[];
  /** Only when the server has Check.records (see records.ts). */
  records?: LinkedRecord[] | null;
}

const SUMMARY = 'uniqueKey name status lastPing nextPing tags';
/** The summary fields plus the records selection when the server offers one. */
export const summaryFields = (records: string) => `${SUMMARY} ${records}`;

export const SIGN_IN = `query SignIn { project { name } __type(name: "Check") { fields { name } } }`;

export const CHECKS_PAGE = (records: string) => `query Checks($after: String) {
  project { checks(first: 100, after: $after) { nodes { ${summaryFields(records)} } hasNextPage endCursor } }
}`;

export const CHECK_CHANGED = (records: string) => `subscription CheckChanged { checkChanged { change check { ${summaryFields(records)} } } }`;

export interface Flip {
  timestamp: string;
  up: boolean;
  oldStatus: string;
  newStatus: string;
  reason: string;
}

export interface Ping {
  n: number;
  type: string;
  date: string;
  method: string;
  scheme: string;
  remoteAddr: string | null;
  ua: string;
  exitStatus: number | null;
  duration: number | null;
}

export interface CheckDetail {
  /** The check's UUID (the `pings` subscription takes it); null for read-only keys. */
  uuid: string | null;
  uniqueKey: string;
  desc: string;
  kind: 'SIMPLE' | 'CRON';
  timeout: number | null;
  grace: number;
  schedule: string | null;
  tz: string | null;
  nPings: number;
  flips: Flip[];
}

const FLIP = 'timestamp up oldStatus newStatus reason';
const PING = 'n type date method scheme remoteAddr ua exitStatus duration';

export const CHECK_DETAIL = `query CheckDetail($uniqueKey: String!) {
  check(uniqueKey: $uniqueKey) { uuid uniqueKey desc kind timeout grace schedule tz nPings flips { ${FLIP} } }
}`;

/** Read-write keys only: read-only keys are refused the ping log, as in Healthchecks. */
export const CHECK_PINGS = `query CheckPings($uniqueKey: String!) { check(uniqueKey: $uniqueKey) { pings(first: 50) { ${PING} } } }`;

export const FLIPS = `subscription Flips { flips { ${FLIP} check { uniqueKey } } }`;

export const PINGS = `subscription Pings($checkId: ID!) { pings(checkId: $checkId) { ${PING} } }`;
