// Healthchecks' per-project Prometheus export (hc/integrations/prometheus/views.py): the text a
// scrape of /projects/<uuid>/metrics/<read-only key> gets, byte for byte, so scrape configs,
// recording rules and Grafana dashboards written against Healthchecks keep working.
import type { Db } from '../../db/client.ts';
import type { MonitoringDeps } from '../context.ts';
import { checkState, tagList } from '../checks/derived.ts';
import type { Status } from '../checks/status.ts';
import { hashKey } from '../projects/keys.ts';
import { projectOfImportedKey } from '../projects/imported-keys.ts';

/** Healthchecks refuses any other length (400) before looking the key up. */
export const METRICS_KEY_LENGTH = 32;

/**
 * The project whose read-only key this is; null for anything else, a read-write key included
 * (Healthchecks' for_api_key(key, accept_rw=False, accept_ro=True)).
 */
export async function projectForReadOnlyKey(db: Db, key: string): Promise<string | null> {
  const project = await db.project.findUnique({ where: { apiKeyReadonlyHash: hashKey(key) }, select: { id: true } });
  // Or an hcr_ key a Healthchecks instance stored hashed, imported with its SECRET_KEY.
  return project?.id ?? (await projectOfImportedKey(db, key, 'apiKeyReadonlyHash'));
}

export interface MetricsCheck {
  name: string;
  /** The tags as stored (the `tags` label shows them so). */
  tags: string;
  uniqueKey: string;
  status: Status;
  started: boolean;
}

/** Healthchecks' esc(): backslash, double quote and newline, in that order. */
const esc = (s: string) => s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

// Python's sorted() orders strings by code point; UTF-8 bytes sort the same way (UTF-16 does not).
const byCodePoint = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

/** The exposition text, line for line as Healthchecks' view yields it. */
export function renderProjectMetrics(checks: MetricsCheck[]): string {
  const rows = checks.map((c) => ({
    labels: `{name="${esc(c.name)}", tags="${esc(c.tags)}", unique_key="${c.uniqueKey}"}`,
    status: c.status,
    started: c.started ? 1 : 0,
  }));
  const out: string[] = [];
  const gauge = (name: string, help: string, lines: string[]) => {
    out.push(`# HELP ${name} ${help}\n`, `# TYPE ${name} gauge\n`, ...lines);
  };
  gauge('hc_check_up', 'Whether the check is currently up (1 for yes, 0 for no).', rows.map((r) => `hc_check_up${r.labels} ${r.status === 'down' ? 0 : 1}\n`));
  out.push('\n');
  gauge('hc_check_started', 'Whether the check is currently started (1 for yes, 0 for no).', rows.map((r) => `hc_check_started${r.labels} ${r.started}\n`));
  out.push('\n');
  gauge('hc_check_grace', 'Whether the check is currently in the grace period (1 for yes, 0 for no).', rows.map((r) => `hc_check_grace${r.labels} ${r.status === 'grace' ? 1 : 0}\n`));
  out.push('\n');
  gauge('hc_check_paused', 'Whether the check is currently paused (1 for yes, 0 for no).', rows.map((r) => `hc_check_paused${r.labels} ${r.status === 'paused' ? 1 : 0}\n`));

  const allTags = new Set<string>();
  const downTags = new Set<string>();
  let down = 0;
  for (const c of checks) {
    const tags = tagList(c.tags);
    for (const t of tags) allTags.add(t);
    if (c.status === 'down') {
      down++;
      for (const t of tags) downTags.add(t);
    }
  }
  out.push('\n');
  gauge('hc_tag_up', 'Whether all checks with this tag are up (1 for yes, 0 for no).', [...allTags].sort(byCodePoint).map((t) => `hc_tag_up{tag="${esc(t)}"} ${downTags.has(t) ? 0 : 1}\n`));
  out.push('\n');
  gauge('hc_checks_total', 'The total number of checks.', [`hc_checks_total ${checks.length}\n`]);
  out.push('\n');
  gauge('hc_checks_down_total', 'The number of checks currently down.', [`hc_checks_down_total ${down}\n`]);
  return out.join('');
}

/** The project's checks (by id, as Healthchecks orders them) with their status now. */
export async function projectMetrics(deps: MonitoringDeps, projectId: string): Promise<string> {
  const rows = await deps.db.check.findMany({ where: { projectId }, orderBy: { id: 'asc' } });
  const now = deps.clock.now();
  return renderProjectMetrics(
    rows.map((c) => ({ name: c.name, tags: c.tags, uniqueKey: c.uniqueKey, status: checkState(c, now).status, started: c.lastStart !== null })),
  );
}
