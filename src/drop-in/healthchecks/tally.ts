// What an import did (or, dry, would do), counted per kind of row: created, updated, unchanged.
export const KINDS = [
  'projects',
  'accounts',
  'memberships',
  'report_settings',
  'authenticator_apps',
  'security_keys',
  'checks',
  'channels',
  'channel_assignments',
  'pings',
  'flips',
  'notifications',
] as const;
export type Kind = (typeof KINDS)[number];
export type Outcome = 'created' | 'updated' | 'unchanged';
export type Counts = Record<Kind, Record<Outcome, number>>;

const zero = (): Counts => Object.fromEntries(KINDS.map((k) => [k, { created: 0, updated: 0, unchanged: 0 }])) as Counts;

export class Tally {
  readonly counts: Counts = zero();

  add(kind: Kind, outcome: Outcome, n = 1) {
    this.counts[kind][outcome] += n;
  }

  /** Adds another tally's counts (a project's, once its transaction committed). */
  merge(other: Tally) {
    for (const k of KINDS) for (const o of ['created', 'updated', 'unchanged'] as const) this.counts[k][o] += other.counts[k][o];
  }

  /** Whether anything was (or would be) written. */
  get changed(): boolean {
    return KINDS.some((k) => this.counts[k].created + this.counts[k].updated > 0);
  }
}
