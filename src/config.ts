// The environment, parsed once and strictly. Every setting has a documented default
// (README.md, docs/operations.md) so `npm start` works on a fresh machine.
import { z } from 'zod';
import type { NotifySettings } from './monitoring/notifications/settings.ts';
import type { RetryPolicy } from './monitoring/notifications/retry.ts';

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

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().default('file:./data/gateway.db'),
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
});

export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
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
  };
}
