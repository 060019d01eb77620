// The environment as the gateway reads it (src/config/): every problem at once with its value
// (secrets hidden), one boolean spelling for every switch, SITE_ROOT and PING_ENDPOINT checked,
// variables that look like misspelt settings warned about, and the effective settings.
import { describe, expect, it } from 'vitest';
import { ConfigError, inspectConfig, loadConfig, type Config } from '../src/config/index.ts';
import { SETTINGS, SETTING_NAMES } from '../src/config/settings.ts';
import { editDistance, unknownSettings } from '../src/config/near-misses.ts';
import { createWorld } from './helpers/world.ts';
import { gql } from './helpers/gql.ts';

/** The ConfigError loadConfig throws for `env`. */
function configError(env: NodeJS.ProcessEnv): ConfigError {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error(`no ConfigError for ${JSON.stringify(env)}`);
}

describe('problems', () => {
  it('reports every problem at once, each naming the variable and its value', () => {
    const err = configError({ PORT: 'eighty', SITE_ROOT: 'nonsense', LOG_LEVEL: 'loud', MONITOR: 'maybe', RATE_LIMIT_API: 'lots' });
    expect(err.problems.map((p) => p.name)).toEqual(['PORT', 'SITE_ROOT', 'MONITOR', 'LOG_LEVEL', 'RATE_LIMIT_API']);
    expect(err.message).toBe(
      [
        '5 problems in the configuration:',
        '  invalid PORT "eighty": expected a whole number from 0 to 65535',
        '  invalid SITE_ROOT "nonsense": expected an http:// or https:// URL such as https://hc.example.org',
        '  invalid MONITOR "maybe": expected True or False (also on/off, yes/no, 1/0)',
        '  invalid LOG_LEVEL "loud": expected one of fatal, error, warn, info, debug, trace, silent',
        '  invalid RATE_LIMIT_API "lots": expected <requests>/<seconds> such as 1000/60 or 20/1h, or off',
      ].join('\n'),
    );
    expect(inspectConfig({ PORT: 'eighty' })).toMatchObject({ config: null, settings: [], problems: [{ name: 'PORT', value: 'eighty', message: 'expected a whole number from 0 to 65535' }] });
  });

  it('hides secrets in the values it quotes: passwords in URLs', () => {
    const err = configError({ DATABASE_URL: 'mysql://gateway:hunter2@db/gw', REDIS_URL: 'http://:s3cret@cache:6379' });
    expect(err.message).not.toMatch(/hunter2|s3cret/);
    expect(err.problems.map((p) => [p.name, p.value])).toEqual([
      ['DATABASE_URL', 'mysql://gateway:***@db/gw'],
      ['REDIS_URL', 'http://:***@cache:6379/'],
    ]);
  });

  it('says what is wrong with SITE_ROOT in a sentence instead of throwing a TypeError', () => {
    for (const bad of ['nonsense', 'ftp://hc.example.org', 'https://', 'https://hc.example.org/?x=1']) {
      expect(() => loadConfig({ SITE_ROOT: bad }), bad).toThrow(new RegExp(`^invalid SITE_ROOT ${JSON.stringify(bad).replace(/[?/.]/g, '\\$&')}: expected an http:// or https:// URL`));
    }
    expect(loadConfig({ SITE_ROOT: 'https://hc.example.org/' }).siteRoot).toBe('https://hc.example.org');
    expect(loadConfig({ SITE_ROOT: 'https://example.org/hc' }).pingEmailDomain).toBe('example.org');
    expect(loadConfig({ PORT: '9000' }).siteRoot).toBe('http://localhost:9000');
  });

  it('takes an empty variable as an unset one (as ${VAR:-default} does)', () => {
    const c = loadConfig({ SITE_ROOT: '', PORT: '', REDIS_CHANNEL_PREFIX: '', MONITOR: '', EMAIL_HOST: '' });
    expect([c.siteRoot, c.port, c.redisChannelPrefix, c.monitorEnabled, c.notify.email]).toEqual(['http://localhost:8000', 8000, 'gateway:events', true, null]);
  });
});

describe('booleans', () => {
  /** Every switch and where the configuration shows it. */
  const SWITCHES: Record<string, (c: Config) => boolean> = {
    MONITOR: (c) => c.monitorEnabled,
    NOTIFIER: (c) => c.notifierEnabled,
    EMAIL_USE_TLS: (c) => c.notify.email!.useTls,
    REGISTRATION_OPEN: (c) => c.registrationOpen,
    WEBHOOKS_ENABLED: (c) => c.notify.webhooksEnabled,
    SLACK_ENABLED: (c) => c.notify.slackEnabled,
    MATTERMOST_ENABLED: (c) => c.notify.mattermostEnabled,
    ROCKETCHAT_ENABLED: (c) => c.notify.rocketchatEnabled,
    DISCORD_ENABLED: (c) => c.notify.discordEnabled,
    PD_ENABLED: (c) => c.notify.pdEnabled,
    OPSGENIE_ENABLED: (c) => c.notify.opsgenieEnabled,
    VICTOROPS_ENABLED: (c) => c.notify.victoropsEnabled,
    PAGERTREE_ENABLED: (c) => c.notify.pagertreeEnabled,
    SPIKE_ENABLED: (c) => c.notify.spikeEnabled,
    MSTEAMS_ENABLED: (c) => c.notify.msteamsEnabled,
    ZULIP_ENABLED: (c) => c.notify.zulipEnabled,
    PROMETHEUS_ENABLED: (c) => c.prometheusEnabled,
    INTEGRATIONS_ALLOW_PRIVATE_IPS: (c) => c.notify.allowPrivateIps,
    RATE_LIMITS: (c) => c.rateLimits.api !== null,
    ACCESS_LOG: (c) => c.accessLog,
    COMPRESSION: (c) => c.compressionMinBytes !== null,
    // On, it needs its server (APPRISE_API_URL, given below to every switch's configuration).
    APPRISE_ENABLED: (c) => c.notify.appriseApiUrl !== null,
    TWILIO_USE_WHATSAPP: (c) => c.notify.whatsappEnabled,
    SHELL_ENABLED: (c) => c.notify.shellEnabled,
  };

  it('knows every switch (a new one joins this list)', () => {
    const switches = SETTING_NAMES.filter((n) => SETTINGS[n].default === 'True' || SETTINGS[n].default === 'False');
    expect(switches.sort()).toEqual(Object.keys(SWITCHES).sort());
  });

  it("accepts Healthchecks' True/False, on/off, yes/no and 1/0 in any case for every switch", () => {
    for (const [name, read] of Object.entries(SWITCHES)) {
      for (const yes of ['True', 'true', 'TRUE', 'on', 'On', 'yes', '1']) expect(read(loadConfig({ EMAIL_HOST: 'smtp', APPRISE_API_URL: 'http://apprise:8000', [name]: yes })), `${name}=${yes}`).toBe(true);
      for (const no of ['False', 'false', 'off', 'OFF', 'no', '0']) expect(read(loadConfig({ EMAIL_HOST: 'smtp', APPRISE_API_URL: 'http://apprise:8000', [name]: no })), `${name}=${no}`).toBe(false);
      expect(() => loadConfig({ [name]: 'enabled' })).toThrow(`invalid ${name} "enabled": expected True or False (also on/off, yes/no, 1/0)`);
    }
  });
});

describe('PING_ENDPOINT', () => {
  it('defaults to SITE_ROOT/ping/, ends in a slash, and must be an http(s) URL', () => {
    expect(loadConfig({}).pingEndpoint).toBeNull();
    expect(inspectConfig({ SITE_ROOT: 'https://hc.example.org' }).settings.find((s) => s.name === 'PING_ENDPOINT')).toEqual({ name: 'PING_ENDPOINT', value: 'https://hc.example.org/ping/', source: 'default' });
    expect(loadConfig({ PING_ENDPOINT: 'https://hc-ping.example.org' }).pingEndpoint).toBe('https://hc-ping.example.org/');
    expect(loadConfig({ PING_ENDPOINT: 'https://example.org/p/' }).pingEndpoint).toBe('https://example.org/p/');
    expect(() => loadConfig({ PING_ENDPOINT: 'hc-ping.example.org' })).toThrow('invalid PING_ENDPOINT "hc-ping.example.org": expected an http:// or https:// URL');
  });

  it('is the base of the ping URLs the REST and GraphQL APIs show', async () => {
    const w = await createWorld({ PING_ENDPOINT: 'https://hc-ping.example.org/' });
    try {
      const created = await w.api('POST', '/api/v3/checks/', { body: { name: 'backup' } });
      expect(created.json.ping_url).toBe(`https://hc-ping.example.org/${created.json.uuid}`);
      // The other URLs stay on SITE_ROOT.
      expect(created.json.update_url).toBe(`${w.url}/api/v3/checks/${created.json.uuid}`);
      const r = await gql(w, 'query($id: ID!) { check(id: $id) { pingUrl } }', { id: created.json.uuid });
      expect(r).toEqual({ data: { check: { pingUrl: created.json.ping_url } } });
    } finally {
      await w.stop();
    }
  });
});

describe('variables that look like settings', () => {
  it('counts a swap of neighbours as one edit', () => {
    expect([editDistance('EMAIL_HOTS', 'EMAIL_HOST'), editDistance('SITE_RO0T', 'SITE_ROOT'), editDistance('HOME', 'HOST'), editDistance('', 'AB')]).toEqual([1, 1, 2, 2]);
  });

  it('warns about near misses with the setting probably meant, and about unknown names of our families', () => {
    const warnings = inspectConfig({ SITE_RO0T: 'https://x.org', EMAIL_HOTS: 'smtp', site_name: 'Ops', EMAIL_USE_SSL: 'True', EMAIL_TIMEOUT: '5', NOTIFY_TIMEOUT: '5' }).warnings;
    expect(warnings).toEqual([
      { name: 'EMAIL_HOTS', suggestion: 'EMAIL_HOST', message: 'EMAIL_HOTS is not a setting (it is ignored); did you mean EMAIL_HOST?' },
      { name: 'EMAIL_TIMEOUT', suggestion: null, message: 'EMAIL_TIMEOUT is not a setting (it is ignored); the EMAIL_ settings are EMAIL_HOST, EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS' },
      { name: 'EMAIL_USE_SSL', suggestion: 'EMAIL_USE_TLS', message: 'EMAIL_USE_SSL is not a setting (it is ignored); did you mean EMAIL_USE_TLS?' },
      {
        name: 'NOTIFY_TIMEOUT',
        suggestion: null,
        message: 'NOTIFY_TIMEOUT is not a setting (it is ignored); the NOTIFY_ settings are NOTIFY_TIMEOUT_MS, NOTIFY_CONCURRENCY, NOTIFY_POLL_MS, NOTIFY_RETRY_BASE_MS, NOTIFY_MAX_ATTEMPTS, NOTIFY_KEEP_DAYS',
      },
      { name: 'SITE_RO0T', suggestion: 'SITE_ROOT', message: 'SITE_RO0T is not a setting (it is ignored); did you mean SITE_ROOT?' },
      { name: 'site_name', suggestion: 'SITE_NAME', message: 'site_name is not a setting (it is ignored); did you mean SITE_NAME?' },
    ]);
  });

  it("leaves other programs' variables alone", () => {
    const env = { HOME: '/root', HOSTNAME: 'box', PATH: '/bin', USER: 'root', NODE_ENV: 'production', TZ: 'UTC', LOG_FORMAT: 'json', DATABASE_HOST: 'db', TEST_DATABASE_URL: 'x', PGHOST: 'db', SHELL: '/bin/sh', LANG: 'C', PWD: '/', TERM: 'xterm' };
    expect(unknownSettings(env, SETTING_NAMES)).toEqual([]);
  });

  it('warns when SMS or email settings are given without the rest they need', () => {
    expect(inspectConfig({ TWILIO_ACCOUNT: 'AC1', TWILIO_FROM: '+1555' }).warnings).toEqual([
      { name: 'TWILIO_AUTH', suggestion: null, message: 'SMS alerts are off: TWILIO_ACCOUNT, TWILIO_AUTH, TWILIO_FROM go together, and TWILIO_AUTH is not set' },
    ]);
    expect(inspectConfig({ EMAIL_HOST_USER: 'alerts', EMAIL_HOST_PASSWORD: 'pw' }).warnings.map((w) => w.message)).toEqual([
      'email alerts are off: EMAIL_HOST_USER, EMAIL_HOST_PASSWORD are set but EMAIL_HOST is not',
    ]);
  });
});

describe('effective settings', () => {
  it('lists every setting with its source, secrets hidden and derived defaults as they apply', () => {
    const report = inspectConfig({
      SITE_ROOT: 'https://hc.example.org/',
      DATABASE_URL: 'postgresql://gateway:hunter2@db:5432/gw',
      EMAIL_HOST: 'smtp.example.org',
      EMAIL_HOST_PASSWORD: 'hunter2',
      METRICS_KEY: 'k3y',
      TWILIO_AUTH: 'tw1l10',
    });
    expect(report.settings.map((s) => s.name)).toEqual(SETTING_NAMES);
    const by = Object.fromEntries(report.settings.map((s) => [s.name, [s.value, s.source]]));
    expect(by).toMatchObject({
      PORT: ['8000', 'default'],
      SITE_ROOT: ['https://hc.example.org/', 'environment'],
      PING_ENDPOINT: ['https://hc.example.org/ping/', 'default'],
      PING_EMAIL_DOMAIN: ['hc.example.org', 'default'],
      DATABASE_URL: ['postgresql://gateway:***@db:5432/gw', 'environment'],
      EMAIL_HOST_PASSWORD: ['***', 'environment'],
      METRICS_KEY: ['***', 'environment'],
      TWILIO_AUTH: ['***', 'environment'],
      RATE_LIMIT_MAX_KEYS: ['50000', 'default'],
      REDIS_URL: [null, 'default'],
      MONITOR: ['True', 'default'],
    });
    expect(JSON.stringify(report.settings)).not.toMatch(/hunter2|k3y|tw1l10/);
  });
});

describe('REDIS_CHANNEL_PREFIX', () => {
  it('defaults to gateway:events and takes a deployment’s own prefix', () => {
    expect(loadConfig({}).redisChannelPrefix).toBe('gateway:events');
    expect(loadConfig({ REDIS_CHANNEL_PREFIX: 'gateway:events:staging' }).redisChannelPrefix).toBe('gateway:events:staging');
  });

  it('refuses a prefix with spaces or pattern characters', () => {
    for (const bad of ['two words', 'gateway:*', 'gateway:[a]']) {
      expect(() => loadConfig({ REDIS_CHANNEL_PREFIX: bad }), JSON.stringify(bad)).toThrow(ConfigError);
    }
    expect(() => loadConfig({ REDIS_CHANNEL_PREFIX: 'a b' })).toThrow('invalid REDIS_CHANNEL_PREFIX "a b": expected a prefix without spaces or *?[] (e.g. gateway:events:staging)');
  });
});

describe('PG_POOL_SIZE', () => {
  it('defaults to 10 connections and refuses what is not a positive whole number', () => {
    expect(loadConfig({}).pgPoolSize).toBe(10);
    expect(loadConfig({ PG_POOL_SIZE: '25' }).pgPoolSize).toBe(25);
    for (const bad of ['0', '-1', '2.5', 'ten']) expect(() => loadConfig({ PG_POOL_SIZE: bad }), bad).toThrow('invalid PG_POOL_SIZE');
  });
});

describe('INTEGRATION_BASE_URLS', () => {
  it('defaults to none and takes a base URL per kind, by our name or Healthchecks’ code', () => {
    expect(loadConfig({}).notify.baseUrls).toEqual({});
    const urls = JSON.stringify({ pd: 'http://127.0.0.1:8080/pd', ntfy: 'https://ntfy.example.org', slack: 'https://proxy.example.org' });
    expect(loadConfig({ INTEGRATION_BASE_URLS: urls }).notify.baseUrls).toEqual({ pagerduty: 'http://127.0.0.1:8080/pd', ntfy: 'https://ntfy.example.org', slack: 'https://proxy.example.org' });
  });

  it('refuses what is not an object of kinds to http(s) URLs, saying what is wrong', () => {
    const problem = (raw: string) => configError({ INTEGRATION_BASE_URLS: raw }).problems[0]!.message;
    const shape = 'expected a JSON object from channel kind to base URL, such as {"ntfy": "https://ntfy.example.org"}';
    expect(problem('https://proxy.example.org')).toBe(shape);
    expect(problem('["ntfy"]')).toBe(shape);
    expect(problem('{"pager": "https://x.example.org"}')).toMatch(/^unknown channel kind "pager" \(kinds: email, webhook, .*, ntfy, .*\bpd, po\b.*\)$/);
    expect(problem('{"email": "https://x.example.org"}')).toBe('email does not send over HTTP, so it has no base URL');
    expect(problem('{"ntfy": 5}')).toBe('the base URL for ntfy must be a string');
    expect(problem('{"ntfy": "ntfy.example.org"}')).toBe('the base URL for ntfy: expected an http:// or https:// URL such as https://proxy.example.org');
    expect(problem('{"opsgenie": "https://x.example.org/?region=eu"}')).toBe('the base URL for opsgenie: expected an http:// or https:// URL such as https://proxy.example.org, without ? or #');
  });
});
