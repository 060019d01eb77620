// deploy/Caddyfile is a configuration Caddy accepts (`caddy adapt`), with both instances as
// upstreams, SSE flushed at once and instances probed on /readyz. Skipped unless caddy is
// installed (Debian: apt-get install caddy).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const hasCaddy = spawnSync('caddy', ['version']).status === 0;

describe.skipIf(!hasCaddy)(`deploy/Caddyfile${hasCaddy ? '' : ' (skipped: caddy is not installed)'}`, () => {
  it('adapts to a reverse proxy over both instances that flushes SSE at once', () => {
    const file = path.join(import.meta.dirname, '..', '..', 'deploy', 'Caddyfile');
    const adapted = spawnSync('caddy', ['adapt', '--config', file, '--adapter', 'caddyfile'], { encoding: 'utf8', env: { ...process.env, SITE_ADDRESS: 'gateway.test' } });
    expect(adapted.status, adapted.stderr).toBe(0);
    const proxy = JSON.stringify(JSON.parse(adapted.stdout));
    expect(proxy).toContain('"host":["gateway.test"]');
    expect(proxy).toContain('"upstreams":[{"dial":"gateway-1:8000"},{"dial":"gateway-2:8000"}]');
    expect(proxy).toContain('"flush_interval":-1');
    expect(proxy).toContain('"uri":"/readyz"');
    expect(proxy).toContain('"X-Request-Id":["{http.request.uuid}"]');
  });
});
