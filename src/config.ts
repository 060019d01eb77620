// The environment, parsed once and strictly. Every setting has a documented default
// (README.md, docs/operations.md) so `npm start` works on a fresh machine.
import { z } from 'zod';
import type { NotifySettings } from './monitoring/notifications/settings.ts';
import type { RetryPolicy } from './monitoring/notifications/retry.ts';
import type { RateRule } from './http/rate-limit.ts';

// Healthchecks' envbool takes "True" and "False"; the usual spellings are accepted too.
const envBool = (fallback: boolean) =>
  z
    .string()
    .default(fallback ? 'True' : 'False')
    .transform((v, ctx) => {
      if (/^(true|1|yes|on)$/i.test(v)) return true;
      if (/^(false|0|no|off)$/i.test(v)) return false;
      ctx.addIssue({ code: 'custom', message: `expected True or False, got ${JSON.stringify(v)}` });
      return z.NEVER;
    });
const optionalText = z.string().optional().transform((v) => (v === '' ? undefined : v));
const onOff = (fallback: 'on' | 'off') => z.enum(['on', 'off']).default(fallback).transform((v) => v === 'on');
const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000 } as const;
// A rate limit as "<requests>/<window>", the window in seconds or with a unit: "20/1h",
// "100/10m", "1000/60"; "off" (or "0") lifts that one limit.
const rateRule = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((v, ctx): RateRule | null => {
      if (/^(off|0)$/i.test(v.trim())) return null;
      const m = /^\s*(\d+)\s*\/\s*(\d+)\s*([smh]?)\s*$/.exec(v);
      const limit = Number(m?.[1]);
      const windowMs = Number(m?.[2]) * UNIT_MS[(m?.[3] || 's') as keyof typeof UNIT_MS];
      if (!m || !(limit >= 1) || !(windowMs >= 1000)) {
        ctx.addIssue({ code: 'custom', message: `expected <requests>/<seconds> such as 1000/60 or 20/1h, or off; got ${JSON.stringify(v)}` });
        return z.NEVER;
      }
      return { limit, windowMs };
    });

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().default('file:./data/gateway.db'),
  // PostgreSQL only: connections this process opens at most (Prisma and the hot paths share them).
  PG_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
  SITE_ROOT: z.string().optional(),
  SITE_NAME: z.string().default('Mychecks'),
  // Healthchecks' PING_BODY_LIMIT: bytes of a ping body kept; "none" keeps everything.
  PING_BODY_LIMIT: z
    .union([z.literal('none'), z.coerce.number().int().min(0)])
    .default(10000),
  // Milliseconds between monitor passes when nothing is known to be due sooner.
  MONITOR_INTERVAL_MS: z.coerce.number().int().min(10).default(1000),
  MONITOR: z.enum(['on', 'off']).default('on'),
  // graphql-ws keep-alive: dead WebSocket subscribers are found and released this often.
  WS_KEEPALIVE_MS: z.coerce.number().int().min(0).default(12000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // Outgoing email (Healthchecks' and Django's names).
  EMAIL_HOST: optionalText,
  EMAIL_PORT: z.coerce.number().int().min(1).max(65535).default(587),
  EMAIL_HOST_USER: z.string().default(''),
  EMAIL_HOST_PASSWORD: z.string().default(''),
  EMAIL_USE_TLS: envBool(true),
  DEFAULT_FROM_EMAIL: z.string().default('healthchecks@example.org'),
  // SMS through Twilio (or a service with its API at TWILIO_API_URL).
  TWILIO_ACCOUNT: optionalText,
  TWILIO_AUTH: optionalText,
  TWILIO_FROM: optionalText,
  TWILIO_API_URL: z.string().url().default('https://api.twilio.com'),
  WEBHOOKS_ENABLED: envBool(true),
  SLACK_ENABLED: envBool(true),
  MATTERMOST_ENABLED: envBool(true),
  ROCKETCHAT_ENABLED: envBool(true),
  DISCORD_ENABLED: envBool(true),
  INTEGRATIONS_ALLOW_PRIVATE_IPS: envBool(false),
  // The notifier: delivery workers in this process.
  NOTIFIER: z.enum(['on', 'off']).default('on'),
  NOTIFY_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  NOTIFY_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(32),
  NOTIFY_POLL_MS: z.coerce.number().int().min(10).default(1000),
  NOTIFY_RETRY_BASE_MS: z.coerce.number().int().min(1).default(5000),
  NOTIFY_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(7),
  NOTIFY_KEEP_DAYS: z.coerce.number().int().min(1).default(90),
  // Inbound email pings: the SMTP listener runs only when SMTPD_PORT is set.
  SMTPD_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  PING_EMAIL_DOMAIN: optionalText,
  // Abuse limits (docs in README): one switch for all, then one rule per scope. Pings, badges
  // and /healthz are never limited.
  RATE_LIMITS: onOff('on'),
  // Django-style login throttling: failed logins per account (a success gives its token back)...
  RATE_LIMIT_LOGIN_ACCOUNT: rateRule('20/1h'),
  // ...and every login attempt per client address.
  RATE_LIMIT_LOGIN_ADDRESS: rateRule('100/10m'),
  // Management API requests per API key (per client address for requests without X-Api-Key).
  RATE_LIMIT_API: rateRule('1000/1m'),
  // GraphQL requests per API key or campus token (per client address without either).
  RATE_LIMIT_GRAPHQL: rateRule('1000/1m'),
  // Keys remembered per limit; idle ones are forgotten first.
  RATE_LIMIT_MAX_KEYS: z.coerce.number().int().min(100).default(50_000),
  ACCESS_LOG: onOff('on'),
  COMPRESSION: onOff('on'),
  // Responses smaller than this are sent as they are (compressing them saves nothing).
  COMPRESSION_MIN_BYTES: z.coerce.number().int().min(0).default(1024),
  // When set, /metrics wants `Authorization: Bearer <METRICS_KEY>`.
  METRICS_KEY: optionalText,
  // When set, live events (flips, pings, check and record changes, notification outcomes)
  // reach subscribers on every instance through this Redis (pub/sub only, nothing stored).
  REDIS_URL: optionalText.refine((v) => v === undefined || /^rediss?:\/\/[^/]/.test(v), 'expected redis://[user:password@]host[:port][/db] or rediss://…'),
  // Channels are `<prefix>:<topic>`: deployments sharing one Redis each take their own prefix
  // (pub/sub ignores the /db number of the URL).
  REDIS_CHANNEL_PREFIX: z.string().regex(/^[^\s*?[\]]+$/, 'expected a prefix without spaces or *?[] (e.g. gateway:events:staging)').default('gateway:events'),
});

export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  /** PostgreSQL: the size of this process's connection pool. */
  pgPoolSize: number;
  siteRoot: string;
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
  accessLog: boolean;
  /** null: responses are never compressed. */
  compressionMinBytes: number | null;
  /** null: /metrics is open. */
  metricsKey: string | null;
  /** null: events stay in this process (one instance). */
  redisUrl: string | null;
  /** Live events travel on the Redis channels `<prefix>:<topic>`. */
  redisChannelPrefix: string;
}

/** A null rule is a limit switched off. */
export interface RateLimitSettings {
  loginAccount: RateRule | null;
  loginAddress: RateRule | null;
  api: RateRule | null;
  graphql: RateRule | null;
  maxKeys: number;
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`invalid ${issue.path.join('.')}: ${issue.message}`);
  }
  const e = parsed.data;
  // Healthchecks strips the trailing slash of SITE_ROOT; URLs are built by appending paths.
  const siteRoot = (e.SITE_ROOT ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    pgPoolSize: e.PG_POOL_SIZE,
    siteRoot,
    siteName: e.SITE_NAME,
    pingBodyLimit: e.PING_BODY_LIMIT === 'none' ? null : e.PING_BODY_LIMIT,
    monitorIntervalMs: e.MONITOR_INTERVAL_MS,
    monitorEnabled: e.MONITOR === 'on',
    wsKeepAliveMs: e.WS_KEEPALIVE_MS,
    logLevel: e.LOG_LEVEL,
    notify: {
      siteRoot,
      siteName: e.SITE_NAME,
      email: e.EMAIL_HOST
        ? { host: e.EMAIL_HOST, port: e.EMAIL_PORT, user: e.EMAIL_HOST_USER, password: e.EMAIL_HOST_PASSWORD, useTls: e.EMAIL_USE_TLS, from: e.DEFAULT_FROM_EMAIL }
        : null,
      twilio:
        e.TWILIO_ACCOUNT && e.TWILIO_AUTH && e.TWILIO_FROM
          ? { account: e.TWILIO_ACCOUNT, auth: e.TWILIO_AUTH, from: e.TWILIO_FROM, apiUrl: e.TWILIO_API_URL }
          : null,
      webhooksEnabled: e.WEBHOOKS_ENABLED,
      slackEnabled: e.SLACK_ENABLED,
      mattermostEnabled: e.MATTERMOST_ENABLED,
      rocketchatEnabled: e.ROCKETCHAT_ENABLED,
      discordEnabled: e.DISCORD_ENABLED,
      allowPrivateIps: e.INTEGRATIONS_ALLOW_PRIVATE_IPS,
      timeoutMs: e.NOTIFY_TIMEOUT_MS,
    },
    notifierEnabled: e.NOTIFIER === 'on',
    notifyConcurrency: e.NOTIFY_CONCURRENCY,
    notifyPollMs: e.NOTIFY_POLL_MS,
    notifyKeepDays: e.NOTIFY_KEEP_DAYS,
    retry: { baseMs: e.NOTIFY_RETRY_BASE_MS, factor: 4, maxAttempts: e.NOTIFY_MAX_ATTEMPTS },
    smtpdPort: e.SMTPD_PORT ?? null,
    // Healthchecks' default is "localhost"; the site's own host name is what mail can reach.
    pingEmailDomain: e.PING_EMAIL_DOMAIN ?? new URL(siteRoot).hostname,
    rateLimits: {
      loginAccount: e.RATE_LIMITS ? e.RATE_LIMIT_LOGIN_ACCOUNT : null,
      loginAddress: e.RATE_LIMITS ? e.RATE_LIMIT_LOGIN_ADDRESS : null,
      api: e.RATE_LIMITS ? e.RATE_LIMIT_API : null,
      graphql: e.RATE_LIMITS ? e.RATE_LIMIT_GRAPHQL : null,
      maxKeys: e.RATE_LIMIT_MAX_KEYS,
    },
    accessLog: e.ACCESS_LOG,
    compressionMinBytes: e.COMPRESSION ? e.COMPRESSION_MIN_BYTES : null,
    metricsKey: e.METRICS_KEY ?? null,
    redisUrl: e.REDIS_URL ?? null,
    redisChannelPrefix: e.REDIS_CHANNEL_PREFIX,
  };
}
