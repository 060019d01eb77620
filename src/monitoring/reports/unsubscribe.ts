// What the unsubscribe link of a report or nag does (Healthchecks' unsubscribe_reports view):
// a link whose signature does not verify is refused; one for an account that is gone answers as
// if it worked; otherwise the account's reports and nags are turned off. The link needs no
// sign-in: the signature is the proof. Mail scanners open links, so a GET only asks for
// confirmation (POST does it, as RFC 8058's one-click does); a link older than five minutes,
// which a person rather than a scanner is opening, confirms itself.
import type { Db } from '../../db/client.ts';
import { secretKey } from '../secret-key.ts';
import { unsubscribeAccount } from './profile.ts';
import { unsignUsername } from './unsubscribe-link.ts';

export interface UnsubscribeDeps {
  db: Db;
  clock: { now(): Date };
  settings: { secretKey?: string | null };
}

export type UnsubscribeLink =
  | { state: 'bad' }
  /** The account no longer exists: nothing to do, shown as done. */
  | { state: 'gone' }
  | { state: 'valid'; personId: number; autosubmit: boolean };

/** Healthchecks auto-submits the confirmation form for signatures older than this. */
const AUTOSUBMIT_AFTER_MS = 300_000;

export async function readUnsubscribeLink(deps: UnsubscribeDeps, signed: string): Promise<UnsubscribeLink> {
  if (signed.length > 500) return { state: 'bad' };
  const link = unsignUsername(signed, await secretKey(deps.db, deps.settings.secretKey));
  if (!link) return { state: 'bad' };
  const person = await deps.db.person.findUnique({ where: { Username: link.username }, select: { ID: true } });
  if (!person) return { state: 'gone' };
  return { state: 'valid', personId: person.ID, autosubmit: deps.clock.now().getTime() - link.signedAt.getTime() > AUTOSUBMIT_AFTER_MS };
}

/** Turns off the reports and nags of the link's account; false for a link that does not verify. */
export async function unsubscribeByLink(deps: UnsubscribeDeps, signed: string): Promise<boolean> {
  const link = await readUnsubscribeLink(deps, signed);
  if (link.state === 'bad') return false;
  if (link.state === 'valid') await unsubscribeAccount(deps.db, link.personId);
  return true;
}
