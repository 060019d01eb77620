// A Healthchecks instance as the importer reads it, whatever it came from (a `dumpdata` file, an
// SQLite file, a PostgreSQL database): the fields of hc/api/models.py and hc/accounts/models.py
// that the gateway keeps, in JavaScript types (durations in seconds, times as Dates, UUIDs in
// their dashed lower-case form). Users are named by username everywhere, as `dumpdata
// --natural-foreign` names them; every other row by its primary key in the instance.

export interface HcUser {
  username: string;
  email: string;
  /** Django's encoded hash ("argon2$…", "pbkdf2_sha256$…"); "!…" or "" when unusable. */
  password: string;
  firstName: string;
  lastName: string;
  isActive: boolean;
  isStaff: boolean;
  isSuperuser: boolean;
  dateJoined: Date | null;
}

export interface HcProfile {
  user: string;
  /** "off", "daily", "weekly" or "monthly". */
  reports: string;
  nextReportDate: Date | null;
  /** Seconds between nag emails; 0: off. */
  nagPeriod: number;
  nextNagDate: Date | null;
  pingLogLimit: number;
  tz: string;
  /** Base32 TOTP secret; null when no authenticator app is set up. */
  totp: string | null;
  totpCreated: Date | null;
}

export interface HcProject {
  pk: number;
  code: string;
  name: string;
  owner: string;
  /** As stored: a plain key (older instances), "secret8.hmac" (current ones), or "" (none). */
  apiKey: string;
  apiKeyReadonly: string;
  badgeKey: string;
  pingKey: string | null;
}

export interface HcMember {
  user: string;
  project: number;
  /** "r" read-only, "w" regular, "m" manager (Member.Role). */
  role: string;
}

export interface HcCheck {
  pk: number;
  code: string;
  project: number;
  name: string;
  slug: string;
  tags: string;
  desc: string;
  created: Date;
  kind: string;
  timeout: number;
  grace: number;
  schedule: string;
  tz: string;
  filterSubject: boolean;
  filterBody: boolean;
  filterHttpBody: boolean;
  filterDefaultFail: boolean;
  startKw: string;
  successKw: string;
  failureKw: string;
  methods: string;
  manualResume: boolean;
  badgeKey: string;
  nPings: number;
  lastPing: Date | null;
  lastStart: Date | null;
  lastStartRid: string | null;
  /** Seconds. */
  lastDuration: number | null;
  alertAfter: Date | null;
  status: string;
}

export interface HcChannel {
  pk: number;
  code: string;
  project: number;
  name: string;
  created: Date;
  kind: string;
  value: string;
  disabled: boolean;
  /** Healthchecks' email_verified: an email channel whose recipient has not confirmed sends nothing (absent: true). */
  emailVerified: boolean;
  /** The checks assigned (Channel.checks, table api_channel_checks). */
  checks: number[];
}

export interface HcPing {
  pk: number;
  n: number | null;
  check: number;
  created: Date;
  /** null for a success. */
  kind: string | null;
  scheme: string;
  remoteAddr: string | null;
  method: string;
  ua: string;
  body: Buffer | null;
  /** Set when the body went to S3 object storage (not in the database, not importable). */
  objectSize: number | null;
  exitStatus: number | null;
  rid: string | null;
}

export interface HcFlip {
  pk: number;
  check: number;
  created: Date;
  processed: Date | null;
  oldStatus: string;
  newStatus: string;
  reason: string;
}

export interface HcNotification {
  pk: number;
  code: string;
  /** null for a channel test. */
  check: number | null;
  checkStatus: string;
  channel: number;
  created: Date;
  error: string;
}

export interface HcCredential {
  code: string;
  name: string;
  user: string;
  created: Date;
  /** fido2's AttestedCredentialData: AAGUID, id length, id, COSE public key. */
  data: Buffer;
}

export interface HcInstance {
  users: HcUser[];
  profiles: HcProfile[];
  projects: HcProject[];
  members: HcMember[];
  checks: HcCheck[];
  channels: HcChannel[];
  pings: HcPing[];
  flips: HcFlip[];
  notifications: HcNotification[];
  credentials: HcCredential[];
  /** Rows of other models the source held (dumpdata), by model: left alone. */
  ignored: Record<string, number>;
}

export const emptyInstance = (): HcInstance => ({
  users: [],
  profiles: [],
  projects: [],
  members: [],
  checks: [],
  channels: [],
  pings: [],
  flips: [],
  notifications: [],
  credentials: [],
  ignored: {},
});

/** A source that cannot be read as a Healthchecks instance; the message is the whole story. */
export class SourceError extends Error {}
