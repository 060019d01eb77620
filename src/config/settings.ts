// Every setting the gateway reads from the environment, in one table: its parser and its
// documented default (README.md's configuration table, docs/operations.md). A variable that is
// set but empty counts as unset, as `${VAR:-default}` in a shell or compose file.
import { baseUrls, bodyLimit, bool, channelPrefix, databaseUrl, httpUrl, int, InvalidValue, oneOf, rateRule, redisUrl, text, trustedProxyList, type Parse } from './parsers.ts';
import { createPrivateKey } from 'node:crypto';
import { CHANNEL_KINDS, HC_KIND_CODES, channelKind } from '../monitoring/integrations/kinds/index.ts';

export interface Setting<T> {
  /** The value of the variable; undefined when it is unset (or empty). Throws InvalidValue. */
  read(raw: string | undefined): T;
  /** What an unset variable means, as written in the documentation; null: unset means off or derived. */
  default: string | null;
}

const withDefault = <T>(parse: Parse<T>, fallback: string): Setting<T> => ({ read: (raw) => parse(raw ?? fallback), default: fallback });
const optional = <T>(parse: Parse<T>): Setting<T | null> => ({ read: (raw) => (raw === undefined ? null : parse(raw)), default: null });

/**
 * Healthchecks' SIGNAL_CLI_SOCKET: with a ":" it is host:port (TCP), as Healthchecks splits it;
 * otherwise the path of signal-cli's UNIX socket.
 */
const signalSocket: Parse<string> = (raw) => {
  const v = raw.trim();
  if (v.includes(':') && !/^[^:\s]+:\d{1,5}$/.test(v)) throw new InvalidValue('expected the path of a UNIX socket, or host:port (e.g. 127.0.0.1:7583)');
  return v;
};

/** Telegram's secret_token alphabet and length: a value Telegram would refuse is refused at start. */
const telegramSecret: Parse<string> = (raw) => {
  if (/^[A-Za-z0-9_-]{1,256}$/.test(raw)) return raw;
  throw new InvalidValue('expected 1 to 256 characters among A-Z, a-z, 0-9, _ and - (Telegram\'s secret_token)');
};

/**
 * GITHUB_PRIVATE_KEY: the GitHub App's private key (PEM), refused at start when node:crypto cannot
 * read it rather than at the first alert. "\n" written as two characters (one-line env files) is a newline.
 */
const pemPrivateKey: Parse<string> = (raw) => {
  const pem = raw.includes('\\n') && !raw.includes('\n') ? raw.replaceAll('\\n', '\n') : raw;
  try {
    createPrivateKey(pem);
  } catch {
    throw new InvalidValue('expected the GitHub App\'s private key in PEM form (-----BEGIN RSA PRIVATE KEY----- …)');
  }
  return pem;
};

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** INTEGRATION_BASE_URLS' keys: a kind that speaks HTTP, by our name or Healthchecks' code. */
function baseUrlKind(key: string): { kind: string } | { refused: string } {
  const definition = channelKind(key);
  if (!definition) return { refused: `unknown channel kind "${key}" (kinds: ${[...CHANNEL_KINDS, ...HC_KIND_CODES].join(', ')})` };
  if (definition.overHttp === false) return { refused: `${key} does not send over HTTP, so it has no base URL` };
  return { kind: definition.kind };
}

export const SETTINGS = {
  PORT: withDefault(int(0, 65535), '8000'),
  HOST: withDefault(text, '0.0.0.0'),
  DATABASE_URL: withDefault(databaseUrl, 'file:./data/gateway.db'),
  // Uploaded media (photos) and their thumbnails; default: a `media` folder beside the SQLite file (./data/media on PostgreSQL).
  MEDIA_DIR: optional(text),
  // PostgreSQL only: connections this process opens at most (Prisma and the hot paths share them).
  PG_POOL_SIZE: withDefault(int(1, 1000), '10'),
  // PostgreSQL only: a statement with no answer after this many ms fails (503), freeing its connection.
  PG_QUERY_TIMEOUT_MS: withDefault(int(100, 3_600_000), '30000'),
  // Default http://localhost:<PORT>; the trailing slash is dropped (Healthchecks strips it too).
  SITE_ROOT: optional(httpUrl('https://hc.example.org')),
  SITE_NAME: withDefault(text, 'Mychecks'),
  // Healthchecks' PING_ENDPOINT: the base of ping URLs the APIs show, default `${SITE_ROOT}/ping/`.
  PING_ENDPOINT: optional(httpUrl('https://hc-ping.example.org/')),
  // Healthchecks' PING_BODY_LIMIT: bytes of a ping body kept; "none" keeps everything.
  PING_BODY_LIMIT: withDefault(bodyLimit, '10000'),
  MONITOR: withDefault(bool, 'True'),
  // Milliseconds between monitor passes when nothing is known to be due sooner.
  MONITOR_INTERVAL_MS: withDefault(int(10), '1000'),
  // graphql-ws keep-alive: dead WebSocket subscribers are found and released this often.
  WS_KEEPALIVE_MS: withDefault(int(0), '12000'),
  LOG_LEVEL: withDefault(oneOf(LOG_LEVELS), 'info'),
  // Outgoing email (Healthchecks' and Django's names).
  EMAIL_HOST: optional(text),
  EMAIL_PORT: withDefault(int(1, 65535), '587'),
  EMAIL_HOST_USER: withDefault(text, ''),
  EMAIL_HOST_PASSWORD: withDefault(text, ''),
  EMAIL_USE_TLS: withDefault(bool, 'True'),
  DEFAULT_FROM_EMAIL: withDefault(text, 'healthchecks@example.org'),
  // Accounts: Healthchecks' REGISTRATION_OPEN (off here: an account is a campus record, made by
  // the CLI or an invitation unless a school opens sign-up).
  REGISTRATION_OPEN: withDefault(bool, 'False'),
  // Browser sessions end after this many seconds without a request, and this many after sign-in.
  SESSION_IDLE_SECONDS: withDefault(int(60), String(14 * 86_400)),
  SESSION_MAX_AGE_SECONDS: withDefault(int(60), String(30 * 86_400)),
  // SMS through Twilio (or a service with its API at TWILIO_API_URL).
  TWILIO_ACCOUNT: optional(text),
  TWILIO_AUTH: optional(text),
  TWILIO_FROM: optional(text),
  TWILIO_API_URL: withDefault(httpUrl('https://api.twilio.com'), 'https://api.twilio.com'),
  // Healthchecks' TWILIO_MESSAGING_SERVICE_SID: SMS are sent from it instead of TWILIO_FROM; WhatsApp needs it.
  TWILIO_MESSAGING_SERVICE_SID: optional(text),
  // Healthchecks' WhatsApp: off unless TWILIO_USE_WHATSAPP is true and the two Content API
  // templates (one variable: the check's name) are set, with TWILIO_MESSAGING_SERVICE_SID.
  TWILIO_USE_WHATSAPP: withDefault(bool, 'False'),
  WHATSAPP_DOWN_CONTENT_SID: optional(text),
  WHATSAPP_UP_CONTENT_SID: optional(text),
  // Healthchecks' Profile.sms_limit and call_limit, for every account: SMS and WhatsApp messages,
  // and phone calls, per project owner per calendar month (UTC). Healthchecks without payments
  // gives every account 10000.
  SMS_MONTHLY_LIMIT: withDefault(int(0), '10000'),
  CALL_MONTHLY_LIMIT: withDefault(int(0), '10000'),
  WEBHOOKS_ENABLED: withDefault(bool, 'True'),
  SLACK_ENABLED: withDefault(bool, 'True'),
  MATTERMOST_ENABLED: withDefault(bool, 'True'),
  ROCKETCHAT_ENABLED: withDefault(bool, 'True'),
  DISCORD_ENABLED: withDefault(bool, 'True'),
  PD_ENABLED: withDefault(bool, 'True'),
  OPSGENIE_ENABLED: withDefault(bool, 'True'),
  VICTOROPS_ENABLED: withDefault(bool, 'True'),
  PAGERTREE_ENABLED: withDefault(bool, 'True'),
  SPIKE_ENABLED: withDefault(bool, 'True'),
  // Healthchecks' NTFY_SH_TOKEN: for ntfy channels on https://ntfy.sh without a token of their own.
  NTFY_SH_TOKEN: optional(text),
  // Healthchecks' PUSHOVER_API_TOKEN: without it Pushover channels are refused ("Pushover notifications are not enabled.").
  PUSHOVER_API_TOKEN: optional(text),
  // Seconds between repeats of an emergency (priority 2) Pushover alert, and how long it repeats.
  PUSHOVER_EMERGENCY_RETRY_DELAY: withDefault(int(30), '300'),
  PUSHOVER_EMERGENCY_EXPIRATION: withDefault(int(1), '86400'),
  MSTEAMS_ENABLED: withDefault(bool, 'True'),
  ZULIP_ENABLED: withDefault(bool, 'True'),
  // Healthchecks' TELEGRAM_TOKEN (the bot's): without it Telegram channels are refused ("Telegram notifications are not enabled.").
  TELEGRAM_TOKEN: optional(text),
  // Checked against Telegram's X-Telegram-Bot-Api-Secret-Token on the bot's webhook (the setWebhook
  // secret_token: 1-256 of A-Z a-z 0-9 _ -); unset, the webhook takes any caller, as Healthchecks' does.
  TELEGRAM_WEBHOOK_SECRET: optional(telegramSecret),
  // Healthchecks' Matrix settings: the homeserver, the bot account's id and its access token;
  // without all three Matrix channels are refused ("Matrix notifications are not enabled.").
  MATRIX_HOMESERVER: optional(httpUrl('https://matrix.org')),
  MATRIX_USER_ID: optional(text),
  MATRIX_ACCESS_TOKEN: optional(text),
  // Healthchecks' SIGNAL_CLI_SOCKET: signal-cli's JSON-RPC socket, a UNIX socket path or host:port;
  // unset, Signal channels are refused ("Signal notifications are not enabled.").
  SIGNAL_CLI_SOCKET: optional(signalSocket),
  // Healthchecks' APPRISE_ENABLED; alerts go through the Apprise API server at APPRISE_API_URL
  // (Healthchecks calls the Python library, which this server cannot): one needs the other.
  APPRISE_ENABLED: withDefault(bool, 'False'),
  APPRISE_API_URL: optional(httpUrl('http://127.0.0.1:8000')),
  // Healthchecks' SHELL_ENABLED: shell channels run their commands on this host (off by default).
  SHELL_ENABLED: withDefault(bool, 'False'),
  // Healthchecks' GitHub App: the client id is the JWT issuer, the private key signs it; without
  // the key GitHub channels are refused ("GitHub notifications are not enabled.").
  GITHUB_CLIENT_ID: optional(text),
  GITHUB_PRIVATE_KEY: optional(pemPrivateKey),
  // Healthchecks' TRELLO_APP_KEY: without it Trello channels are refused ("Trello notifications are not enabled.").
  TRELLO_APP_KEY: optional(text),
  // A JSON object from kind to base URL: the scheme, host and port that replace those of that
  // kind's requests (a proxy, a regional or self-hosted endpoint, a local receiver in tests).
  // Private addresses still need INTEGRATIONS_ALLOW_PRIVATE_IPS, as for webhooks.
  INTEGRATION_BASE_URLS: withDefault(baseUrls(baseUrlKind), '{}'),
  // Healthchecks' per-project export at /projects/<uuid>/metrics/<read-only key>.
  PROMETHEUS_ENABLED: withDefault(bool, 'True'),
  INTEGRATIONS_ALLOW_PRIVATE_IPS: withDefault(bool, 'False'),
  // The notifier: delivery workers in this process.
  NOTIFIER: withDefault(bool, 'True'),
  NOTIFY_TIMEOUT_MS: withDefault(int(100, 120_000), '10000'),
  NOTIFY_CONCURRENCY: withDefault(int(1, 1000), '32'),
  NOTIFY_POLL_MS: withDefault(int(10), '1000'),
  NOTIFY_RETRY_BASE_MS: withDefault(int(1), '5000'),
  NOTIFY_MAX_ATTEMPTS: withDefault(int(1, 100), '7'),
  NOTIFY_KEEP_DAYS: withDefault(int(1), '90'),
  // Inbound email pings: the SMTP listener runs only when SMTPD_PORT is set.
  SMTPD_PORT: optional(int(0, 65535)),
  // Default: the host name of SITE_ROOT (Healthchecks' is "localhost"; the site's name is what mail can reach).
  PING_EMAIL_DOMAIN: optional(text),
  // Abuse limits (docs in README): one switch for all, then one rule per scope. Pings, badges
  // and /healthz are never limited.
  RATE_LIMITS: withDefault(bool, 'True'),
  // Django-style login throttling: failed logins per account (a success gives its token back)...
  RATE_LIMIT_LOGIN_ACCOUNT: withDefault(rateRule, '20/1h'),
  // ...and every login attempt per client address.
  RATE_LIMIT_LOGIN_ADDRESS: withDefault(rateRule, '100/10m'),
  // Management API requests per API key (per client address for requests without X-Api-Key).
  RATE_LIMIT_API: withDefault(rateRule, '1000/1m'),
  // GraphQL requests per API key or campus token (per client address without either).
  RATE_LIMIT_GRAPHQL: withDefault(rateRule, '1000/1m'),
  // Keys remembered per limit; idle ones are forgotten first.
  RATE_LIMIT_MAX_KEYS: withDefault(int(100), '50000'),
  // Reverse proxies (addresses, CIDR blocks) whose X-Forwarded-For, X-Forwarded-Proto and
  // X-Request-Id are believed; unset: nobody's, the socket's peer is the client.
  TRUSTED_PROXIES: optional(trustedProxyList),
  ACCESS_LOG: withDefault(bool, 'True'),
  COMPRESSION: withDefault(bool, 'True'),
  // Responses smaller than this are sent as they are (compressing them saves nothing).
  COMPRESSION_MIN_BYTES: withDefault(int(0), '1024'),
  // When set, /metrics wants `Authorization: Bearer <METRICS_KEY>`.
  METRICS_KEY: optional(text),
  // Healthchecks' SECRET_KEY: signs badge URLs (an instance's old badge URLs verify with its
  // value). Unset: the installation's own secret, made once and kept in the database.
  SECRET_KEY: optional(text),
  // When set, live events (flips, pings, check and record changes, notification outcomes)
  // reach subscribers on every instance through this Redis (pub/sub only, nothing stored).
  REDIS_URL: optional(redisUrl),
  // Channels are `<prefix>:<topic>`: deployments sharing one Redis each take their own prefix
  // (pub/sub ignores the /db number of the URL).
  REDIS_CHANNEL_PREFIX: withDefault(channelPrefix, 'gateway:events'),
} satisfies Record<string, Setting<unknown>>;

export type SettingName = keyof typeof SETTINGS;
export type SettingValues = { [K in SettingName]: ReturnType<(typeof SETTINGS)[K]['read']> };
export const SETTING_NAMES = Object.keys(SETTINGS) as SettingName[];
