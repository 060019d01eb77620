// What the identity room needs: the database, the clock, the event bus (to tell open
// subscriptions that access changed) and its settings. Built once by the composition.
import type { Logger } from 'pino';
import type { Db } from '../db/client.ts';
import type { MonitoringEvents } from '../events/bus.ts';
import type { EmailSettings } from '../monitoring/notifications/settings.ts';
import type { Clock } from '../shared/clock.ts';
import type { SessionSettings } from './sessions.ts';

export interface IdentitySettings {
  /** The base of links in mail (invitations, sign-in links) and the WebAuthn relying party. */
  siteRoot: string;
  siteName: string;
  /** REGISTRATION_OPEN: anyone may sign up (with a verified address); off, accounts come from the CLI and invitations. */
  registrationOpen: boolean;
  sessions: SessionSettings;
  /** Outgoing mail (the alert mail settings); null: no mail can be sent. */
  email: EmailSettings | null;
}

export interface IdentityDeps {
  db: Db;
  clock: Clock;
  events: MonitoringEvents;
  settings: IdentitySettings;
  /** Where failures nobody waits for are told (mail sent after the answer, so it reveals no account). */
  log?: Pick<Logger, 'warn'>;
}

/** Cookies are Secure when the site is served over https (SITE_ROOT). */
export const secureCookies = (settings: IdentitySettings) => settings.siteRoot.startsWith('https:');
