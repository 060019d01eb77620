// What `gateway import-healthchecks` prints: for people, a line per project and per kind, then
// the notes (what is kept differently, and why) and warnings (what to act on); for scripts
// (--json), the counts per kind.
import type { ImportResult } from './import.ts';
import { KINDS, type Counts } from './tally.ts';

const LABELS: Record<(typeof KINDS)[number], string> = {
  projects: 'projects',
  accounts: 'accounts',
  memberships: 'memberships',
  report_settings: 'report settings',
  authenticator_apps: 'authenticator apps',
  security_keys: 'security keys',
  checks: 'checks',
  channels: 'channels',
  channel_assignments: 'channel assignments',
  pings: 'pings',
  flips: 'flips',
  notifications: 'notifications',
};

function kindLines(counts: Counts, dry: boolean): string[] {
  const verb = (o: 'created' | 'updated' | 'unchanged') => (dry && o !== 'unchanged' ? `would be ${o}` : o);
  return KINDS.flatMap((k) => {
    const parts = (['created', 'updated', 'unchanged'] as const).filter((o) => counts[k][o] > 0).map((o) => `${counts[k][o]} ${verb(o)}`);
    return parts.length ? [`  ${LABELS[k]}: ${parts.join(', ')}`] : [];
  });
}

export function reportText(result: ImportResult): string[] {
  const dry = result.dryRun;
  const lines = [dry ? 'Dry run: nothing was written. An import would do this:' : 'Imported from Healthchecks:'];
  for (const p of result.projects) {
    if (p.outcome === 'refused') lines.push(`project "${p.name}" (${p.id}): refused, nothing of it ${dry ? 'would be' : 'was'} written: ${p.reason}`);
    else lines.push(`project "${p.name}" (${p.id}): ${dry && p.outcome !== 'unchanged' ? `would be ${p.outcome}` : p.outcome}`);
  }
  lines.push('in all:');
  const totals = kindLines(result.counts, dry);
  lines.push(...(totals.length ? totals : ['  nothing']));
  const ignored = Object.entries(result.ignored);
  if (ignored.length) lines.push(`left alone (not imported): ${ignored.map(([m, n]) => `${m} ${n}`).join(', ')}`);
  if (result.notes.length) lines.push('notes:', ...result.notes.map((n) => `  - ${n}`));
  if (result.warnings.length) lines.push('warnings:', ...result.warnings.map((w) => `  - ${w}`));
  return lines;
}

/** --json: counts per kind ({"checks": {"created": 3, "updated": 0, "unchanged": 1}, …}), projects, notes, warnings. */
export function reportJson(result: ImportResult) {
  return {
    dry_run: result.dryRun,
    counts: result.counts,
    projects: result.projects.map((p) => ({ id: p.id, name: p.name, outcome: p.outcome, ...(p.reason ? { reason: p.reason } : {}), counts: p.counts })),
    refused: result.projects.filter((p) => p.outcome === 'refused').length,
    ignored: result.ignored,
    notes: result.notes,
    warnings: result.warnings,
  };
}
