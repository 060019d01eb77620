// Operator settings for delivery, with Healthchecks' names where it has them (config.ts reads
// them from the environment; docs/operations.md lists them).
export interface EmailSettings {
  host: string;
  port: number;
  user: string;
  password: string;
  /** Healthchecks' EMAIL_USE_TLS: STARTTLS required. Port 465 means TLS from the first byte. */
  useTls: boolean;
  from: string;
}

export interface TwilioSettings {
  account: string;
  auth: string;
  from: string;
  /** Base URL of the Twilio-compatible API (tests point it at a local server). */
  apiUrl: string;
  /** Healthchecks' TWILIO_MESSAGING_SERVICE_SID: SMS go out from it instead of `from`; WhatsApp needs it. */
  messagingServiceSid: string | null;
  /**
   * The Content API templates WhatsApp requires outside a conversation (WHATSAPP_DOWN_CONTENT_SID,
   * WHATSAPP_UP_CONTENT_SID); null: not both set.
   */
  whatsapp: { downContentSid: string; upContentSid: string } | null;
}

/** Messages per account per month (Healthchecks' Profile.sms_limit and call_limit). */
export interface PhoneLimits {
  /** SMS and WhatsApp messages together, as Healthchecks counts them. */
  messages: number;
  calls: number;
}

export interface NotifySettings {
  siteRoot: string;
  siteName: string;
  /** null: EMAIL_HOST is not set, email notifications fail with a clear error. */
  email: EmailSettings | null;
  /** null: TWILIO_ACCOUNT/AUTH/FROM are not all set. */
  twilio: TwilioSettings | null;
  /** Healthchecks' TWILIO_USE_WHATSAPP: WhatsApp alerts also need twilio.whatsapp and messagingServiceSid. */
  whatsappEnabled: boolean;
  /** SMS_MONTHLY_LIMIT and CALL_MONTHLY_LIMIT, counted against each project owner's account. */
  phoneLimits: PhoneLimits;
  webhooksEnabled: boolean;
  slackEnabled: boolean;
  mattermostEnabled: boolean;
  rocketchatEnabled: boolean;
  discordEnabled: boolean;
  /** Healthchecks' PD_ENABLED, OPSGENIE_ENABLED, VICTOROPS_ENABLED, PAGERTREE_ENABLED, SPIKE_ENABLED. */
  pdEnabled: boolean;
  opsgenieEnabled: boolean;
  victoropsEnabled: boolean;
  pagertreeEnabled: boolean;
  spikeEnabled: boolean;
  /** Healthchecks' NTFY_SH_TOKEN: sent to https://ntfy.sh for ntfy channels without a token of their own. */
  ntfyShToken: string | null;
  /** Healthchecks' MSTEAMS_ENABLED and ZULIP_ENABLED. */
  msteamsEnabled: boolean;
  zulipEnabled: boolean;
  /** Healthchecks' TELEGRAM_TOKEN, the bot's; null: Telegram channels are refused. */
  telegramToken: string | null;
  /** Healthchecks' MATRIX_HOMESERVER (no trailing "/"), MATRIX_USER_ID, MATRIX_ACCESS_TOKEN; null: not all set (Matrix channels are refused). */
  matrix: { homeserver: string; userId: string; accessToken: string } | null;
  /** Healthchecks' SIGNAL_CLI_SOCKET: a UNIX socket path or host:port; null: Signal channels are refused. */
  signalCliSocket: string | null;
  /** APPRISE_API_URL when APPRISE_ENABLED (no trailing "/"); null: Apprise channels are refused. */
  appriseApiUrl: string | null;
  /** Healthchecks' SHELL_ENABLED (off by default): shell channels run their commands on this host. */
  shellEnabled: boolean;
  /** Healthchecks' GITHUB_CLIENT_ID (the app's JWT issuer) and GITHUB_PRIVATE_KEY (PEM); null: GitHub channels are refused. */
  github: { clientId: string; privateKey: string } | null;
  /** Healthchecks' TRELLO_APP_KEY; null: Trello channels are refused. */
  trelloAppKey: string | null;
  /** null: PUSHOVER_API_TOKEN is not set (Pushover channels are refused). Retry and expiry in seconds. */
  pushover: { apiToken: string; emergencyRetryDelay: number; emergencyExpiration: number } | null;
  /**
   * INTEGRATION_BASE_URLS by kind (our names): the scheme, host and port that replace those of
   * the kind's requests (a proxy, a regional or self-hosted endpoint, a test receiver).
   */
  baseUrls: Readonly<Record<string, string>>;
  /** Healthchecks' INTEGRATIONS_ALLOW_PRIVATE_IPS: may user-given URLs reach private addresses? */
  allowPrivateIps: boolean;
  /** One attempt's time limit (Healthchecks: 10 s). */
  timeoutMs: number;
}
