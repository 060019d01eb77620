// Browser sessions: a random id in an HttpOnly cookie, stored as its sha256 beside Slate's
// token sessions (one table, one list of a person's sessions). A browser session ends after an
// idle period without requests or at its absolute lifetime, whichever comes first; the id is
// new at every sign-in (no session fixation), and any session can be ended by its owner.
import type { Db } from '../db/client.ts';
import type { AccessChangedEvent, GatewayEvents } from '../events/bus.ts';
import { committing, TransactionEvents } from '../events/outbox.ts';
import type { Clock } from '../shared/clock.ts';
import { notFound } from '../shared/errors.ts';
import { hashSecret, newSecret } from './tokens.ts';
import { maySignIn } from './accounts.ts';
import type { AccountLevel } from '../campus/kinds.ts';

export interface SessionSettings {
  /** Seconds without a request after which a browser session ends. */
  idleSeconds: number;
  /** Seconds after sign-in at which a browser session ends, however used. */
  absoluteSeconds: number;
}

// Healthchecks (Django) keeps a session two weeks; an idle fortnight ends ours too, and a
// month caps any session so a stolen cookie does not work forever.
export const DEFAULT_SESSION_SETTINGS: SessionSettings = { idleSeconds: 14 * 86_400, absoluteSeconds: 30 * 86_400 };

/** Writes of LastRequest are spared for a minute: a busy dashboard does not write per request. */
const TOUCH_EVERY_MS = 60_000;

export interface BrowserSession {
  sessionId: number;
  personId: number;
  username: string;
  level: AccountLevel;
}

export interface OpenSessionInput {
  personId: number;
  now: Date;
  userAgent?: string | null;
  address?: string | null;
  /** The session the browser held before signing in (ended: the id is never reused). */
  replacing?: string | null;
}

export async function openBrowserSession(db: Db, settings: SessionSettings, input: OpenSessionInput): Promise<{ token: string; sessionId: number; expiresAt: Date }> {
  if (input.replacing) await db.campusSession.deleteMany({ where: { TokenHash: hashSecret(input.replacing), Kind: 'browser' } });
  const token = newSecret();
  const expiresAt = new Date(input.now.getTime() + settings.absoluteSeconds * 1000);
  const session = await db.campusSession.create({
    data: {
      TokenHash: hashSecret(token),
      PersonID: input.personId,
      Kind: 'browser',
      Created: input.now,
      LastRequest: input.now,
      ExpiresAt: expiresAt,
      UserAgent: input.userAgent?.slice(0, 300) ?? null,
      Address: input.address?.slice(0, 100) ?? null,
    },
  });
  return { token, sessionId: session.ID, expiresAt };
}

const isExpired = (s: { LastRequest: Date; ExpiresAt: Date | null }, settings: SessionSettings, now: Date) =>
  (s.ExpiresAt !== null && s.ExpiresAt <= now) || s.LastRequest.getTime() + settings.idleSeconds * 1000 <= now.getTime();

/** The live browser session behind a cookie's token, or null (unknown, ended, expired, or the account may no longer sign in). */
export async function browserSession(db: Db, settings: SessionSettings, token: string, now: Date): Promise<BrowserSession | null> {
  if (!token || token.length > 200) return null;
  const session = await db.campusSession.findUnique({
    where: { TokenHash: hashSecret(token) },
    include: { person: { select: { ID: true, Username: true, AccountLevel: true } } },
  });
  if (!session || session.Kind !== 'browser') return null;
  if (isExpired(session, settings, now)) {
    await db.campusSession.deleteMany({ where: { ID: session.ID } });
    return null;
  }
  if (!maySignIn(session.person.AccountLevel) || !session.person.Username) return null;
  if (now.getTime() - session.LastRequest.getTime() >= TOUCH_EVERY_MS) {
    await db.campusSession.updateMany({ where: { ID: session.ID }, data: { LastRequest: now } });
  }
  return { sessionId: session.ID, personId: session.person.ID, username: session.person.Username, level: session.person.AccountLevel as AccountLevel };
}

/** Whether a session is still live (for open subscriptions, re-checked when access changes). */
export async function sessionIsLive(db: Db, settings: SessionSettings, sessionId: number, now: Date): Promise<boolean> {
  const session = await db.campusSession.findUnique({ where: { ID: sessionId }, include: { person: { select: { AccountLevel: true } } } });
  return !!session && !isExpired(session, settings, now) && maySignIn(session.person.AccountLevel);
}

/** A person's sessions, browser and token alike, newest first (never their tokens). */
export async function listSessions(db: Db, settings: SessionSettings, personId: number, now: Date) {
  const sessions = await db.campusSession.findMany({ where: { PersonID: personId }, orderBy: { ID: 'desc' } });
  return sessions
    .filter((s) => s.Kind !== 'browser' || !isExpired(s, settings, now))
    .map((s) => ({ id: s.ID, kind: s.Kind, created: s.Created, lastRequest: s.LastRequest, expiresAt: s.ExpiresAt, userAgent: s.UserAgent, address: s.Address }));
}

/** Ends one of the person's own sessions; another person's is not found. */
export async function endSessionOf(db: Db, personId: number, sessionId: number) {
  const { count } = await db.campusSession.deleteMany({ where: { ID: sessionId, PersonID: personId } });
  if (count === 0) throw notFound('session not found');
}

/** "Sign out everywhere": every session of the person, browser and token, except `keep`. */
export async function endAllSessions(db: Db, personId: number, keep: number | null = null): Promise<number> {
  const { count } = await db.campusSession.deleteMany({ where: { PersonID: personId, ...(keep === null ? {} : { ID: { not: keep } }) } });
  return count;
}

/**
 * A write that ends someone's access (sessions, a password reset) in one transaction with its
 * accessChanged event, kept with it (events/outbox.ts): every instance ends the person's
 * subscriptions, even if this one dies right after the commit.
 */
export function endingAccess<T>(deps: { db: Db; events: GatewayEvents; clock: Clock }, event: AccessChangedEvent, work: (db: Db) => Promise<T>): Promise<T> {
  return committing(deps.db, new TransactionEvents(deps.events, deps.clock), async (tx, events) => {
    // The session functions take a client; the transaction's has every model they use.
    const out = await work(tx as unknown as Db);
    events.add('accessChanged', event);
    return out;
  });
}

export async function endBrowserSession(db: Db, token: string) {
  await db.campusSession.deleteMany({ where: { TokenHash: hashSecret(token), Kind: 'browser' } });
}
