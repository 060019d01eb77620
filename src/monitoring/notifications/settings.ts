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
}

export interface NotifySettings {
  siteRoot: string;
  siteName: string;
  /** null: EMAIL_HOST is not set, email notifications fail with a clear error. */
  email: EmailSettings | null;
  /** null: TWILIO_ACCOUNT/AUTH/FROM are not all set. */
  twilio: TwilioSettings | null;
  webhooksEnabled: boolean;
  slackEnabled: boolean;
  mattermostEnabled: boolean;
  rocketchatEnabled: boolean;
  discordEnabled: boolean;
  /** Healthchecks' INTEGRATIONS_ALLOW_PRIVATE_IPS: may user-given URLs reach private addresses? */
  allowPrivateIps: boolean;
  /** One attempt's time limit (Healthchecks: 10 s). */
  timeoutMs: number;
}
