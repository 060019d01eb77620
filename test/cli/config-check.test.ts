// `gateway config check` (in process): the effective configuration with secrets hidden, or every
// problem with exit status 1; and the warnings about misspelt variables every command prints.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayIn } from './in-process.ts';

let dir: string;
let database: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-config-check-'));
  database = path.join(dir, 'never.db');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SECRETS = { EMAIL_HOST_PASSWORD: 'hunter2', METRICS_KEY: 'k3y-k3y', REDIS_URL: 'redis://:r3dis-pw@cache:6379' };

describe('gateway config check', () => {
  it('prints every setting with its source, secrets hidden, and the warnings; exit status 0', async () => {
    const env = { DATABASE_URL: `file:${database}`, SITE_ROOT: 'https://hc.example.org', EMAIL_HOST: 'smtp.example.org', SITE_RO0T: 'x', ...SECRETS };
    const r = await gatewayIn(env, ['config', 'check']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const lines = r.stdout.split('\n');
    expect(lines.slice(0, 3)).toEqual([
      'The configuration is valid: 6 settings from the environment, the others their defaults.',
      'warning: SITE_RO0T is not a setting (it is ignored); did you mean SITE_ROOT?',
      '',
    ]);
    expect(lines[3]).toMatch(/^setting\s+value\s+source$/);
    expect(r.stdout).toMatch(/^PORT\s+8000\s+default$/m);
    expect(r.stdout).toMatch(/^PING_ENDPOINT\s+https:\/\/hc\.example\.org\/ping\/\s+default$/m);
    expect(r.stdout).toMatch(/^EMAIL_HOST_PASSWORD\s+\*\*\*\s+environment$/m);
    expect(r.stdout).toMatch(/^REDIS_URL\s+redis:\/\/:\*\*\*@cache:6379\s+environment$/m);
    expect(r.stdout).toMatch(/^SMTPD_PORT\s+\(unset\)\s+default$/m);
    expect(r.stdout).not.toMatch(/hunter2|k3y-k3y|r3dis-pw/);
    // It reads no database: the one DATABASE_URL names is still not there.
    expect(existsSync(database)).toBe(false);
  });

  it('prints the same as JSON with --json', async () => {
    const r = await gatewayIn({ DATABASE_URL: 'postgresql://gateway:pg-pw@db:5432/gw', ...SECRETS }, ['config', 'check', '--json']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ valid: true, problems: [] });
    expect(report.warnings).toEqual([{ name: 'EMAIL_HOST', suggestion: null, message: 'email alerts are off: EMAIL_HOST_PASSWORD is set but EMAIL_HOST is not' }]);
    expect(report.settings.PORT).toEqual({ value: '8000', source: 'default' });
    expect(report.settings.DATABASE_URL).toEqual({ value: 'postgresql://gateway:***@db:5432/gw', source: 'environment' });
    expect(report.settings.METRICS_KEY).toEqual({ value: '***', source: 'environment' });
    expect(report.settings.EMAIL_HOST).toEqual({ value: null, source: 'default' });
    expect(r.stdout).not.toMatch(/hunter2|k3y-k3y|r3dis-pw|pg-pw/);
  });

  it('lists every problem, values quoted and secrets hidden, with exit status 1 (text and JSON)', async () => {
    const env = { SITE_ROOT: 'nonsense', PORT: '99999', REDIS_URL: 'http://:r3dis-pw@cache', EMAIL_HOTS: 'smtp' };
    const [text, json] = await Promise.all([gatewayIn(env, ['config', 'check']), gatewayIn(env, ['config', 'check', '--json'])]);
    expect([text.code, text.stderr]).toEqual([1, '']);
    expect(text.stdout).toBe(
      [
        'The configuration is invalid: 3 problems.',
        'invalid PORT "99999": expected a whole number from 0 to 65535',
        'invalid SITE_ROOT "nonsense": expected an http:// or https:// URL such as https://hc.example.org',
        'invalid REDIS_URL "http://:***@cache/": expected redis://[user:password@]host[:port][/db] or rediss://…',
        'warning: EMAIL_HOTS is not a setting (it is ignored); did you mean EMAIL_HOST?',
        '',
      ].join('\n'),
    );
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({
      valid: false,
      problems: [
        { name: 'PORT', value: '99999', message: 'expected a whole number from 0 to 65535' },
        { name: 'SITE_ROOT', value: 'nonsense', message: 'expected an http:// or https:// URL such as https://hc.example.org' },
        { name: 'REDIS_URL', value: 'http://:***@cache/', message: 'expected redis://[user:password@]host[:port][/db] or rediss://…' },
      ],
      warnings: [{ name: 'EMAIL_HOTS', suggestion: 'EMAIL_HOST', message: 'EMAIL_HOTS is not a setting (it is ignored); did you mean EMAIL_HOST?' }],
      settings: {},
    });
  });
});

describe('configuration in the other commands', () => {
  it('warns about a misspelt variable on standard error, then refuses an invalid configuration as one error', async () => {
    const env = { DATABASE_URL: `file:${database}`, SITE_RO0T: 'https://hc.example.org', PORT: 'http' };
    const [text, json] = await Promise.all([gatewayIn(env, ['project', 'list']), gatewayIn(env, ['project', 'list', '--json'])]);
    expect([text.code, text.stdout]).toEqual([1, '']);
    expect(text.stderr).toBe(
      'gateway: warning: SITE_RO0T is not a setting (it is ignored); did you mean SITE_ROOT?\n' + 'gateway: invalid PORT "http": expected a whole number from 0 to 65535\n',
    );
    expect([json.code, json.stdout]).toEqual([1, '']);
    expect(json.stderr.trim().split('\n').map((l) => JSON.parse(l))).toEqual([
      { warning: 'SITE_RO0T is not a setting (it is ignored); did you mean SITE_ROOT?' },
      { error: 'invalid PORT "http": expected a whole number from 0 to 65535' },
    ]);
  });
});
