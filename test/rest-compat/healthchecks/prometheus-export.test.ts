// Healthchecks' per-project Prometheus export (hc/integrations/prometheus/): paths, answers and
// the exposition text. EXPECTED was printed by Python from a line-for-line copy of Healthchecks'
// view (output() in hc/integrations/prometheus/views.py) fed with this fixture's checks, the
// unique keys left as UK_* placeholders.
import { describe, expect, it } from 'vitest';
import { T0 } from '../../helpers/world.ts';
import { useWorld } from '../../helpers/fixtures.ts';
import { uniqueKeyFor } from '../../../src/monitoring/checks/derived.ts';
import { loadConfig } from '../../../src/config/index.ts';
import { renderProjectMetrics } from '../../../src/monitoring/metrics-export/service.ts';
import { importedKeyColumn } from '../../../src/monitoring/projects/imported-keys.ts';
import { createProject } from '../../../src/monitoring/projects/service.ts';

const EXPECTED = `# HELP hc_check_up Whether the check is currently up (1 for yes, 0 for no).
# TYPE hc_check_up gauge
hc_check_up{name="Fresh", tags="", unique_key="UK_new"} 1
hc_check_up{name="Backups", tags="db prod", unique_key="UK_up"} 1
hc_check_up{name="Say \\"hi\\" \\\\ now\\nplease", tags="a\\\\b \\"q\\"", unique_key="UK_grace"} 1
hc_check_up{name="Nightly", tags="prod ＊", unique_key="UK_down"} 0
hc_check_up{name="Paused", tags="😀 été", unique_key="UK_paused"} 1
hc_check_up{name="Running", tags="db  Zeta", unique_key="UK_started"} 1

# HELP hc_check_started Whether the check is currently started (1 for yes, 0 for no).
# TYPE hc_check_started gauge
hc_check_started{name="Fresh", tags="", unique_key="UK_new"} 0
hc_check_started{name="Backups", tags="db prod", unique_key="UK_up"} 0
hc_check_started{name="Say \\"hi\\" \\\\ now\\nplease", tags="a\\\\b \\"q\\"", unique_key="UK_grace"} 0
hc_check_started{name="Nightly", tags="prod ＊", unique_key="UK_down"} 0
hc_check_started{name="Paused", tags="😀 été", unique_key="UK_paused"} 0
hc_check_started{name="Running", tags="db  Zeta", unique_key="UK_started"} 1

# HELP hc_check_grace Whether the check is currently in the grace period (1 for yes, 0 for no).
# TYPE hc_check_grace gauge
hc_check_grace{name="Fresh", tags="", unique_key="UK_new"} 0
hc_check_grace{name="Backups", tags="db prod", unique_key="UK_up"} 0
hc_check_grace{name="Say \\"hi\\" \\\\ now\\nplease", tags="a\\\\b \\"q\\"", unique_key="UK_grace"} 1
hc_check_grace{name="Nightly", tags="prod ＊", unique_key="UK_down"} 0
hc_check_grace{name="Paused", tags="😀 été", unique_key="UK_paused"} 0
hc_check_grace{name="Running", tags="db  Zeta", unique_key="UK_started"} 0

# HELP hc_check_paused Whether the check is currently paused (1 for yes, 0 for no).
# TYPE hc_check_paused gauge
hc_check_paused{name="Fresh", tags="", unique_key="UK_new"} 0
hc_check_paused{name="Backups", tags="db prod", unique_key="UK_up"} 0
hc_check_paused{name="Say \\"hi\\" \\\\ now\\nplease", tags="a\\\\b \\"q\\"", unique_key="UK_grace"} 0
hc_check_paused{name="Nightly", tags="prod ＊", unique_key="UK_down"} 0
hc_check_paused{name="Paused", tags="😀 été", unique_key="UK_paused"} 1
hc_check_paused{name="Running", tags="db  Zeta", unique_key="UK_started"} 0

# HELP hc_tag_up Whether all checks with this tag are up (1 for yes, 0 for no).
# TYPE hc_tag_up gauge
hc_tag_up{tag="\\"q\\""} 1
hc_tag_up{tag="Zeta"} 1
hc_tag_up{tag="a\\\\b"} 1
hc_tag_up{tag="db"} 1
hc_tag_up{tag="prod"} 0
hc_tag_up{tag="été"} 1
hc_tag_up{tag="＊"} 0
hc_tag_up{tag="😀"} 1

# HELP hc_checks_total The total number of checks.
# TYPE hc_checks_total gauge
hc_checks_total 6

# HELP hc_checks_down_total The number of checks currently down.
# TYPE hc_checks_down_total gauge
hc_checks_down_total 1
`;

// Python's output for a project without checks.
const EMPTY =
  "# HELP hc_check_up Whether the check is currently up (1 for yes, 0 for no).\n# TYPE hc_check_up gauge\n\n# HELP hc_check_started Whether the check is currently started (1 for yes, 0 for no).\n# TYPE hc_check_started gauge\n\n# HELP hc_check_grace Whether the check is currently in the grace period (1 for yes, 0 for no).\n# TYPE hc_check_grace gauge\n\n# HELP hc_check_paused Whether the check is currently paused (1 for yes, 0 for no).\n# TYPE hc_check_paused gauge\n\n# HELP hc_tag_up Whether all checks with this tag are up (1 for yes, 0 for no).\n# TYPE hc_tag_up gauge\n\n# HELP hc_checks_total The total number of checks.\n# TYPE hc_checks_total gauge\nhc_checks_total 0\n\n# HELP hc_checks_down_total The number of checks currently down.\n# TYPE hc_checks_down_total gauge\nhc_checks_down_total 0\n";

const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const w = useWorld();

async function scrape(path: string, headers: Record<string, string> = {}) {
  const r = await fetch(w.url + path, { headers });
  return { status: r.status, type: r.headers.get('content-type'), text: await r.text() };
}

describe('GET /projects/<uuid>/metrics/<read-only key>', () => {
  let expected = '';

  it("exports each check's state, the tags and the totals exactly as Healthchecks does", async () => {
    w.clock.set(T0);
    const create = async (body: Record<string, unknown>) => (await w.api('POST', '/api/v3/checks/', { body })).json.uuid as string;
    const fresh = await create({ name: 'Fresh' });
    const up = await create({ name: 'Backups', tags: 'db prod', timeout: 3600 });
    const grace = await create({ name: 'Say "hi" \\ now\nplease', tags: 'a\\b "q"', timeout: 60, grace: 600 });
    const down = await create({ name: 'Nightly', tags: 'prod \uff0a', timeout: 60, grace: 60 });
    const paused = await create({ name: 'Paused', tags: '\u{1F600} \u00e9t\u00e9' });
    const started = await create({ name: 'Running', tags: 'db  Zeta', timeout: 3600 });
    for (const code of [up, grace, down, started]) await w.ping(`/ping/${code}`);
    expect((await w.api('POST', `/api/v3/checks/${paused}/pause`)).status).toBe(200);
    w.clock.set(at(100));
    await w.ping(`/ping/${started}/start`);
    w.clock.set(at(300));

    const keys = { UK_new: fresh, UK_up: up, UK_grace: grace, UK_down: down, UK_paused: paused, UK_started: started };
    expected = EXPECTED.replace(/UK_\w+/g, (k) => uniqueKeyFor(keys[k as keyof typeof keys]));
    const r = await scrape(`/projects/${w.alice.id}/metrics/${w.alice.api_key_readonly}`);
    expect([r.status, r.type]).toEqual([200, 'text/plain']);
    expect(r.text).toBe(expected);
  });

  it('answers the same on the older /checks/metrics/ path and with Authorization: Bearer on /metrics/', async () => {
    const ro = w.alice.api_key_readonly;
    expect((await scrape(`/projects/${w.alice.id}/checks/metrics/${ro}`)).text).toBe(expected);
    const bearer = await scrape(`/projects/${w.alice.id}/metrics/`, { Authorization: `Bearer ${ro}` });
    expect([bearer.status, bearer.type, bearer.text]).toEqual([200, 'text/plain', expected]);
    // Healthchecks finds the project by the key alone; the UUID in the path is not compared.
    expect((await scrape(`/projects/${w.bob.id}/metrics/${ro}`)).text).toBe(expected);
  });

  it('exports a project without checks', async () => {
    const { apiKeyReadonlyHash } = await w.app.db.project.findUniqueOrThrow({ where: { id: w.bob.id } });
    expect(apiKeyReadonlyHash).not.toBeNull();
    expect((await scrape(`/projects/${w.bob.id}/metrics/${w.bob.api_key_readonly}`)).text).toBe(EMPTY);
    expect(renderProjectMetrics([])).toBe(EMPTY);
  });

  it("refuses with Healthchecks' codes: 401 without a Bearer header, 400 for a key not 32 long, 403 for any other key, 404 off the route", async () => {
    const id = w.alice.id;
    const ro = w.alice.api_key_readonly;
    // Healthchecks' bodies are empty; ours say why (docs/decisions.md, "Error bodies").
    const MISSING = 'missing api key';
    const LENGTH = 'wrong api key length';
    const WRONG = 'wrong api key';
    const cases: [string, Record<string, string>, number, string][] = [
      [`/projects/${id}/metrics/`, {}, 401, MISSING],
      [`/projects/${id}/metrics/`, { Authorization: `bearer ${ro}` }, 401, MISSING],
      [`/projects/${id}/metrics/`, { Authorization: `Bearer ${ro}x` }, 400, LENGTH],
      [`/projects/${id}/metrics/${ro}R`, {}, 400, LENGTH],
      [`/projects/${id}/metrics/short`, {}, 400, LENGTH],
      // A read-write key is not accepted (for_api_key(accept_rw=False)), nor an unknown one.
      [`/projects/${id}/metrics/${w.alice.api_key}`, {}, 403, WRONG],
      [`/projects/${id}/checks/metrics/${'X'.repeat(32)}`, {}, 403, WRONG],
      [`/projects/${id}/metrics/`, { Authorization: `Bearer ${w.bob.api_key}` }, 403, WRONG],
      // Django's <uuid:> is lower case only and <slug:> takes no other characters.
      [`/projects/${id.toUpperCase()}/metrics/${ro}`, {}, 404, 'not found'],
      [`/projects/not-a-uuid/metrics/${ro}`, {}, 404, 'not found'],
      [`/projects/${id}/metrics/${ro.slice(0, 31)}.`, {}, 404, 'not found'],
    ];
    for (const [path, headers, status, error] of cases) {
      const r = await scrape(path, headers);
      expect([r.status, r.type, r.text], `${path} ${JSON.stringify(headers)}`).toEqual([status, 'application/json', JSON.stringify({ error })]);
    }
  });

  it("accepts a read-only key a Healthchecks instance stored hashed (imported with its SECRET_KEY), not a read-write one", async () => {
    // Python: key[4:12] + "." + hmac.digest(SECRET_KEY.encode(), key.encode(), "sha256").hex()
    const SECRET = 'django-insecure-7f3#kq!x9v$w2m@p0z&l8r^e5t*y1u(i)o';
    const ro = 'hcr_Ab3dEf7hJk9mNp2qRs4tUv6wXy8z';
    const rw = 'hcw_Zz3dEf7hJk9mNp2qRs4tUv6wXy8a';
    const p = await createProject(w.app.db, { name: 'Imported' });
    await w.app.db.project.update({
      where: { id: p.id },
      data: {
        apiKeyReadonlyHash: importedKeyColumn('Ab3dEf7h.556b1e011caad39631ef8df711b56a7360b8c4ddf29dc76d90ba6ca2d5b5a585', SECRET),
        apiKeyHash: importedKeyColumn('Zz3dEf7h.d9e34ff80b41c0070ed65ce1701b76365557c72aa38a9171120bae90dcbff3c2', SECRET),
      },
    });
    expect((await scrape(`/projects/${p.id}/metrics/${rw}`)).status).toBe(403);
    for (let i = 0; i < 2; i++) expect((await scrape(`/projects/${p.id}/metrics/${ro}`)).text, `scrape ${i + 1}`).toBe(EMPTY);
  });

  it('is 404 with PROMETHEUS_ENABLED off', async () => {
    expect(loadConfig({ PROMETHEUS_ENABLED: 'False' }).prometheusEnabled).toBe(false);
    expect(loadConfig({}).prometheusEnabled).toBe(true);
    w.app.deps.settings.prometheusEnabled = false;
    try {
      expect((await scrape(`/projects/${w.alice.id}/metrics/${w.alice.api_key_readonly}`)).status).toBe(404);
    } finally {
      w.app.deps.settings.prometheusEnabled = true;
    }
  });
});
