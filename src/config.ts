// The environment, parsed once and strictly. Every setting has a documented default
// (README.md, docs/operations.md) so `npm start` works on a fresh machine.
import { z } from 'zod';

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
  };
}
