// The environment, parsed once and strictly. Every setting has a documented default
// (settings.ts; README.md, docs/operations.md) so `npm start` works on a fresh machine. Every
// problem is reported at once, each naming the variable and its value (secrets hidden), and
// variables that look like misspelt settings are warned about.
import type { NotifySettings } from '../monitoring/notifications/settings.ts';
import type { RetryPolicy } from '../monitoring/notifications/retry.ts';
import type { RateRule } from '../http/rate-limit.ts';
import type { SessionSettings } from '../identity/sessions.ts';
import { InvalidValue } from './parsers.ts';
import { redactValue } from './redact.ts';
import { SETTING_NAMES, SETTINGS, type SettingName, type SettingValues } from './settings.ts';
import { unknownSettings, type ConfigWarning } from './near-misses.ts';
import { pingEndpoint } from '../monitoring/pings/url.ts';

export type { ConfigWarning } from './near-misses.ts';
export { redactValue } from './redact.ts';

export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  /** PostgreSQL: the size of this process's connection pool. */
  pgPoolSize: number;
  pgQueryTimeoutMs: number;
  siteRoot: string;
  /** PING_ENDPOINT, ending in "/"; null: `${siteRoot}/ping/` (Healthchecks' default). */
  pingEndpoint: string | null;
  siteName: string;
  pingBodyLimit: number | null;
  monitorIntervalMs: number;
  monitorEnabled: boolean;
  wsKeepAliveMs: number;
  logLevel: string;
  notify: NotifySettings;
  notifierEnabled: boolean;
  notifyConcurrency: number;
  notifyPollMs: number;
  notifyKeepDays: number;
  retry: RetryPolicy;
  /** null: no SMTP listener. */
  smtpdPort: number | null;
  pingEmailDomain: string;
  rateLimits: RateLimitSettings;
  /** TRUSTED_PROXIES' entries (addresses, CIDR blocks); empty: no proxy is trusted. */
  trustedProxies: string[];
  accessLog: boolean;
  /** null: responses are never compressed. */
  compressionMinBytes: number | null;
  /** null: /metrics is open. */
  metricsKey: string | null;
  /** TELEGRAM_WEBHOOK_SECRET: the bot webhook's X-Telegram-Bot-Api-Secret-Token; null: not checked. */
  telegramWebhookSecret: string | null;
  /** SECRET_KEY; null: the installation's own, kept in the database (src/monitoring/secret-key.ts). */
  secretKey: string | null;
  /** PROMETHEUS_ENABLED: serve /projects/<uuid>/metrics/<key>. */
  prometheusEnabled: boolean;
  /** null: events stay in this process (one instance). */
  redisUrl: string | null;
  /** Live events travel on the Redis channels `<prefix>:<topic>`. */
  redisChannelPrefix: string;
  registrationOpen: boolean;
  /** MEDIA_DIR: uploaded media and thumbnails (src/campus/media/local-storage.ts). */
  mediaDir: string;
  sessions: SessionSettings;
}

/** A null rule is a limit switched off. */
export interface RateLimitSettings {
  loginAccount: RateRule | null;
  loginAddress: RateRule | null;
  api: RateRule | null;
  graphql: RateRule | null;
  maxKeys: number;
}

export interface ConfigProblem {
  name: SettingName;
  /** The value as given, secrets hidden. */
  value: string;
  /** What was expected. */
  message: string;
}

/** One setting as it applies: the variable's value (secrets hidden) or the default. */
export interface EffectiveSetting {
  name: SettingName;
  /** null: unset, and unset means off (e.g. EMAIL_HOST, REDIS_URL). */
  value: string | null;
  source: 'environment' | 'default';
}

export interface ConfigReport {
  /** null when there are problems. */
  config: Config | null;
  problems: ConfigProblem[];
  warnings: ConfigWarning[];
  /** Every setting in the table's order (empty when there are problems). */
  settings: EffectiveSetting[];
}

export const problemLine = (p: ConfigProblem) => `invalid ${p.name} ${JSON.stringify(p.value)}: ${p.message}`;

export class ConfigError extends Error {
  constructor(readonly problems: ConfigProblem[]) {
    super(problems.length === 1 ? problemLine(problems[0]!) : `${problems.length} problems in the configuration:\n${problems.map((p) => `  ${problemLine(p)}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** The variable's text, or undefined when it is unset or empty. */
const rawOf = (env: NodeJS.ProcessEnv, name: string) => (env[name] === '' ? undefined : env[name]);

/** Healthchecks strips the trailing slash of SITE_ROOT; URLs are built by appending paths. */
const siteRootOf = (v: SettingValues) => (v.SITE_ROOT ?? `http://localhost:${v.PORT}`).replace(/\/+$/, '');

/** Healthchecks appends the check's UUID to PING_ENDPOINT as it is; a missing "/" is added here. */
const withSlash = (url: string) => (url.endsWith('/') ? url : `${url}/`);

function build(v: SettingValues): Config {
  const siteRoot = siteRootOf(v);
  return {
    port: v.PORT,
    host: v.HOST,
    databaseUrl: v.DATABASE_URL,
    pgPoolSize: v.PG_POOL_SIZE,
    pgQueryTimeoutMs: v.PG_QUERY_TIMEOUT_MS,
    siteRoot,
    pingEndpoint: v.PING_ENDPOINT === null ? null : withSlash(v.PING_ENDPOINT),
    siteName: v.SITE_NAME,
    pingBodyLimit: v.PING_BODY_LIMIT,
    monitorIntervalMs: v.MONITOR_INTERVAL_MS,
    monitorEnabled: v.MONITOR,
    wsKeepAliveMs: v.WS_KEEPALIVE_MS,
    logLevel: v.LOG_LEVEL,
    notify: {
      siteRoot,
      siteName: v.SITE_NAME,
      email: v.EMAIL_HOST
        ? { host: v.EMAIL_HOST, port: v.EMAIL_PORT, user: v.EMAIL_HOST_USER, password: v.EMAIL_HOST_PASSWORD, useTls: v.EMAIL_USE_TLS, from: v.DEFAULT_FROM_EMAIL }
        : null,
      twilio:
        v.TWILIO_ACCOUNT && v.TWILIO_AUTH && v.TWILIO_FROM
          ? {
              account: v.TWILIO_ACCOUNT,
              auth: v.TWILIO_AUTH,
              from: v.TWILIO_FROM,
              apiUrl: v.TWILIO_API_URL,
              messagingServiceSid: v.TWILIO_MESSAGING_SERVICE_SID,
              whatsapp:
                v.WHATSAPP_DOWN_CONTENT_SID && v.WHATSAPP_UP_CONTENT_SID ? { downContentSid: v.WHATSAPP_DOWN_CONTENT_SID, upContentSid: v.WHATSAPP_UP_CONTENT_SID } : null,
            }
          : null,
      whatsappEnabled: v.TWILIO_USE_WHATSAPP,
      phoneLimits: { messages: v.SMS_MONTHLY_LIMIT, calls: v.CALL_MONTHLY_LIMIT },
      webhooksEnabled: v.WEBHOOKS_ENABLED,
      slackEnabled: v.SLACK_ENABLED,
      mattermostEnabled: v.MATTERMOST_ENABLED,
      rocketchatEnabled: v.ROCKETCHAT_ENABLED,
      discordEnabled: v.DISCORD_ENABLED,
      pdEnabled: v.PD_ENABLED,
      opsgenieEnabled: v.OPSGENIE_ENABLED,
      victoropsEnabled: v.VICTOROPS_ENABLED,
      pagertreeEnabled: v.PAGERTREE_ENABLED,
      spikeEnabled: v.SPIKE_ENABLED,
      ntfyShToken: v.NTFY_SH_TOKEN,
      msteamsEnabled: v.MSTEAMS_ENABLED,
      zulipEnabled: v.ZULIP_ENABLED,
      telegramToken: v.TELEGRAM_TOKEN,
      matrix:
        v.MATRIX_HOMESERVER && v.MATRIX_USER_ID && v.MATRIX_ACCESS_TOKEN
          ? { homeserver: v.MATRIX_HOMESERVER.replace(/\/+$/, ''), userId: v.MATRIX_USER_ID, accessToken: v.MATRIX_ACCESS_TOKEN }
          : null,
      signalCliSocket: v.SIGNAL_CLI_SOCKET,
      appriseApiUrl: v.APPRISE_ENABLED && v.APPRISE_API_URL ? v.APPRISE_API_URL.replace(/\/+$/, '') : null,
      shellEnabled: v.SHELL_ENABLED,
      github: v.GITHUB_CLIENT_ID && v.GITHUB_PRIVATE_KEY ? { clientId: v.GITHUB_CLIENT_ID, privateKey: v.GITHUB_PRIVATE_KEY } : null,
      trelloAppKey: v.TRELLO_APP_KEY,
      pushover: v.PUSHOVER_API_TOKEN ? { apiToken: v.PUSHOVER_API_TOKEN, emergencyRetryDelay: v.PUSHOVER_EMERGENCY_RETRY_DELAY, emergencyExpiration: v.PUSHOVER_EMERGENCY_EXPIRATION } : null,
      baseUrls: v.INTEGRATION_BASE_URLS,
      allowPrivateIps: v.INTEGRATIONS_ALLOW_PRIVATE_IPS,
      timeoutMs: v.NOTIFY_TIMEOUT_MS,
    },
    notifierEnabled: v.NOTIFIER,
    notifyConcurrency: v.NOTIFY_CONCURRENCY,
    notifyPollMs: v.NOTIFY_POLL_MS,
    notifyKeepDays: v.NOTIFY_KEEP_DAYS,
    retry: { baseMs: v.NOTIFY_RETRY_BASE_MS, factor: 4, maxAttempts: v.NOTIFY_MAX_ATTEMPTS },
    smtpdPort: v.SMTPD_PORT,
    pingEmailDomain: v.PING_EMAIL_DOMAIN ?? new URL(siteRoot).hostname,
    rateLimits: {
      loginAccount: v.RATE_LIMITS ? v.RATE_LIMIT_LOGIN_ACCOUNT : null,
      loginAddress: v.RATE_LIMITS ? v.RATE_LIMIT_LOGIN_ADDRESS : null,
      api: v.RATE_LIMITS ? v.RATE_LIMIT_API : null,
      graphql: v.RATE_LIMITS ? v.RATE_LIMIT_GRAPHQL : null,
      maxKeys: v.RATE_LIMIT_MAX_KEYS,
    },
    trustedProxies: v.TRUSTED_PROXIES ?? [],
    accessLog: v.ACCESS_LOG,
    compressionMinBytes: v.COMPRESSION ? v.COMPRESSION_MIN_BYTES : null,
    metricsKey: v.METRICS_KEY,
    telegramWebhookSecret: v.TELEGRAM_WEBHOOK_SECRET,
    secretKey: v.SECRET_KEY,
    prometheusEnabled: v.PROMETHEUS_ENABLED,
    redisUrl: v.REDIS_URL,
    redisChannelPrefix: v.REDIS_CHANNEL_PREFIX,
    registrationOpen: v.REGISTRATION_OPEN,
    mediaDir: v.MEDIA_DIR ?? defaultMediaDir(v.DATABASE_URL),
    sessions: { idleSeconds: v.SESSION_IDLE_SECONDS, absoluteSeconds: v.SESSION_MAX_AGE_SECONDS },
  };
}

/** Media beside the SQLite file (one folder to back up); PostgreSQL has no file, so ./data/media. */
function defaultMediaDir(databaseUrl: string): string {
  if (!databaseUrl.startsWith('file:')) return 'data/media';
  const file = databaseUrl.slice('file:'.length).split('?')[0]!;
  const slash = file.lastIndexOf('/');
  return slash < 0 ? 'media' : `${file.slice(0, slash) || '/'}/media`.replace('//', '/');
}

/** Defaults computed from other settings, shown as they apply. */
const DERIVED: Partial<Record<SettingName, (c: Config) => string>> = {
  SITE_ROOT: (c) => c.siteRoot,
  PING_ENDPOINT: pingEndpoint,
  PING_EMAIL_DOMAIN: (c) => c.pingEmailDomain,
  MEDIA_DIR: (c) => c.mediaDir,
};

/** Settings that do nothing unless set together: silently off otherwise. */
function incompleteGroups(env: NodeJS.ProcessEnv): ConfigWarning[] {
  const groups: Array<{ needs: SettingName[]; what: string }> = [
    { needs: ['TWILIO_ACCOUNT', 'TWILIO_AUTH', 'TWILIO_FROM'], what: 'SMS alerts are off' },
    { needs: ['MATRIX_HOMESERVER', 'MATRIX_USER_ID', 'MATRIX_ACCESS_TOKEN'], what: 'Matrix alerts are off' },
    { needs: ['GITHUB_CLIENT_ID', 'GITHUB_PRIVATE_KEY'], what: 'GitHub alerts are off' },
  ];
  const warnings: ConfigWarning[] = [];
  for (const { needs, what } of groups) {
    const missing = needs.filter((n) => rawOf(env, n) === undefined);
    if (missing.length > 0 && missing.length < needs.length) {
      warnings.push({ name: missing[0]!, suggestion: null, message: `${what}: ${needs.join(', ')} go together, and ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not set` });
    }
  }
  // TWILIO_USE_WHATSAPP asks for WhatsApp; without any of these it stays off ("not enabled").
  if (/^(true|on|yes|1)$/i.test(rawOf(env, 'TWILIO_USE_WHATSAPP')?.trim() ?? '')) {
    const whatsappNeeds: SettingName[] = ['TWILIO_ACCOUNT', 'TWILIO_AUTH', 'TWILIO_FROM', 'TWILIO_MESSAGING_SERVICE_SID', 'WHATSAPP_DOWN_CONTENT_SID', 'WHATSAPP_UP_CONTENT_SID'];
    const missing = whatsappNeeds.filter((n) => rawOf(env, n) === undefined);
    if (missing.length) warnings.push({ name: missing[0]!, suggestion: null, message: `WhatsApp alerts are off: TWILIO_USE_WHATSAPP is on but ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not set` });
  }
  if (rawOf(env, 'EMAIL_HOST') === undefined) {
    const set = (['EMAIL_HOST_USER', 'EMAIL_HOST_PASSWORD'] as const).filter((n) => rawOf(env, n) !== undefined);
    if (set.length) warnings.push({ name: 'EMAIL_HOST', suggestion: null, message: `email alerts are off: ${set.join(', ')} ${set.length === 1 ? 'is' : 'are'} set but EMAIL_HOST is not` });
  }
  return warnings;
}

/**
 * Switches that cannot work without another setting: refused at start rather than failing every
 * alert later. Judged only on values that parsed (a bad one is reported already).
 */
function missingCompanions(values: Partial<Record<SettingName, unknown>>, env: NodeJS.ProcessEnv): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  // Healthchecks calls the Apprise library; we post to an Apprise API server, which must be named.
  if (values.APPRISE_ENABLED === true && values.APPRISE_API_URL === null) {
    problems.push({ name: 'APPRISE_ENABLED', value: rawOf(env, 'APPRISE_ENABLED') ?? '', message: 'Apprise alerts need APPRISE_API_URL, the base URL of an Apprise API server (https://github.com/caronc/apprise-api), e.g. http://127.0.0.1:8000' });
  }
  return problems;
}

/** Everything `gateway config check` reports: the configuration or every problem, and the warnings. */
export function inspectConfig(env: NodeJS.ProcessEnv = process.env): ConfigReport {
  const values: Partial<Record<SettingName, unknown>> = {};
  const problems: ConfigProblem[] = [];
  for (const name of SETTING_NAMES) {
    const raw = rawOf(env, name);
    try {
      values[name] = SETTINGS[name].read(raw);
    } catch (err) {
      if (!(err instanceof InvalidValue)) throw err;
      problems.push({ name, value: redactValue(name, raw ?? SETTINGS[name].default ?? ''), message: err.message });
    }
  }
  problems.push(...missingCompanions(values, env));
  const warnings = [...unknownSettings(env, SETTING_NAMES), ...incompleteGroups(env)];
  if (problems.length) return { config: null, problems, warnings, settings: [] };
  const config = build(values as SettingValues);
  const settings = SETTING_NAMES.map((name): EffectiveSetting => {
    const raw = rawOf(env, name);
    const derived = DERIVED[name];
    const shown = raw ?? (derived ? derived(config) : SETTINGS[name].default);
    return { name, value: shown === null ? null : redactValue(name, shown), source: raw === undefined ? 'default' : 'environment' };
  });
  return { config, problems, warnings, settings };
}

/** The configuration; a ConfigError listing every problem when there is any. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const report = inspectConfig(env);
  if (!report.config) throw new ConfigError(report.problems);
  return report.config;
}
