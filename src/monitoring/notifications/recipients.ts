// Who receives an alert: the channels assigned to the check, a group standing for its members.
// Healthchecks' Group transport loops over the members at send time, so a retry of the group
// would send again to members that already had it. Here a group is expanded when the alert is
// queued: one notification per member, each retried on its own, and a member that is also
// assigned directly (or through a second group) is sent one message, not two.
import { channelKind } from '../integrations/kinds/index.ts';

export interface ChannelTarget {
  id: number;
  disabled: boolean;
  notifyDown: boolean;
  notifyUp: boolean;
  /** A group's members (its project's channels that still exist); undefined: not a group. */
  members?: ChannelTarget[];
}

/** A channel row as the loaders read it, before its members are known. */
export interface ChannelRow {
  id: number;
  projectId: string;
  kind: string;
  value: string;
  disabled: boolean;
  notifyDown: boolean;
  notifyUp: boolean;
}

/** A channel takes a status unless disabled or configured not to (e.g. a webhook without an up URL). */
export function channelTakes(channel: Pick<ChannelTarget, 'disabled' | 'notifyDown' | 'notifyUp'>, status: 'down' | 'up'): boolean {
  return !channel.disabled && (status === 'down' ? channel.notifyDown : channel.notifyUp);
}

/** The member codes of a group channel (its kind's `members`); null for any other channel. */
export function memberCodesOf(row: Pick<ChannelRow, 'kind' | 'value'>): string[] | null {
  return channelKind(row.kind)?.members?.(row.value) ?? null;
}

/**
 * The channels that get a notification for `status`, each once: the assigned channels that take
 * it, then the members of the assigned groups that take it (a disabled group sends nothing; a
 * disabled member is skipped, as a disabled channel is notified of nothing). A member that is a
 * group itself is skipped: validation refuses it, and no alert goes round in circles.
 */
export function recipients(channels: readonly ChannelTarget[], status: 'down' | 'up'): ChannelTarget[] {
  const out = new Map<number, ChannelTarget>();
  for (const c of channels) if (!c.members && channelTakes(c, status)) out.set(c.id, c);
  for (const group of channels) {
    if (!group.members || !channelTakes(group, status)) continue;
    for (const m of group.members) if (!m.members && channelTakes(m, status) && !out.has(m.id)) out.set(m.id, m);
  }
  return [...out.values()];
}

/** The (project, code) pairs of every member named by the groups among `rows`: one look-up for all. */
export function memberKeys(rows: Iterable<ChannelRow>): Array<{ projectId: string; code: string }> {
  const keys = new Map<string, { projectId: string; code: string }>();
  for (const row of rows) for (const code of memberCodesOf(row) ?? []) keys.set(`${row.projectId}:${code}`, { projectId: row.projectId, code });
  return [...keys.values()];
}

/**
 * Targets from rows: a group gets the members found among `memberRows` (a member deleted since
 * is left out, as Healthchecks' group_channels filters it away); a member that is a group keeps
 * an empty list, so recipients() skips it.
 */
export function toTargets(rows: readonly ChannelRow[], memberRows: ReadonlyArray<ChannelRow & { code: string }>): ChannelTarget[] {
  const byKey = new Map(memberRows.map((m) => [`${m.projectId}:${m.code.toLowerCase()}`, m]));
  const plain = (r: ChannelRow): ChannelTarget => ({ id: r.id, disabled: r.disabled, notifyDown: r.notifyDown, notifyUp: r.notifyUp });
  return rows.map((row) => {
    const codes = memberCodesOf(row);
    if (!codes) return plain(row);
    const members = codes.flatMap((code) => {
      const m = byKey.get(`${row.projectId}:${code}`);
      return m ? [{ ...plain(m), ...(memberCodesOf(m) ? { members: [] } : {}) }] : [];
    });
    return { ...plain(row), members };
  });
}
