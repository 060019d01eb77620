// A channel that reaches a stranger's mailbox needs the recipient's consent, so no channel
// becomes a relay for abuse (Healthchecks' email_verified and its unsubscribe links). A new
// channel of a kind that `confirmsRecipient` starts unverified unless its address is its
// creator's own; the recipient gets a link, and alerts fail until it is opened. Every alert it
// sends carries an unsubscribe link, which disables the channel and makes it unverified again,
// so nobody can switch it back on without the recipient's say.
//
// Links are HMACs of the channel's UUID and value with the installation's SECRET_KEY: nothing
// to store, and a link stops working when the address changes (it was consent for that address).
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Channel } from '../../generated/prisma/client.ts';
import type { Db } from '../../db/client.ts';
import { recordAudit } from '../audit/service.ts';
import { channelKind } from './kinds/index.ts';
import { sendIdentityMail, type IdentityMail } from '../../identity/mail.ts';
import type { IdentitySettings } from '../../identity/context.ts';
import type { Actor } from '../../identity/roles.ts';
import { validationError } from '../../shared/errors.ts';
import { secretKey } from '../secret-key.ts';

export type ConsentPurpose = 'verify' | 'unsubscribe';

/** The path segment of each link, as Healthchecks names them (/integrations/<uuid>/verify/<token>/). */
export const CONSENT_PATHS: Record<ConsentPurpose, string> = { verify: 'verify', unsubscribe: 'unsub' };

/** Who the audit log names for what a recipient did through a link. */
const RECIPIENT = { personId: null, label: 'Recipient (emailed link)' };

type Addressed = Pick<Channel, 'code' | 'value'>;

export function consentToken(secret: string, purpose: ConsentPurpose, channel: Addressed): string {
  return createHmac('sha256', secret).update(`channel-${purpose}\n${channel.code}\n${channel.value}`).digest('base64url').slice(0, 32);
}

export function consentLink(siteRoot: string, secret: string, purpose: ConsentPurpose, channel: Addressed): string {
  return `${siteRoot.replace(/\/+$/, '')}/integrations/${channel.code}/${CONSENT_PATHS[purpose]}/${consentToken(secret, purpose, channel)}/`;
}

/** Whether a new channel (or a new address) of this kind waits for its recipient: not when the address is the creator's own. */
export function needsConsent(kind: string, value: string, creatorEmail: string | null): boolean {
  if (!channelKind(kind)?.confirmsRecipient) return false;
  return creatorEmail === null || creatorEmail.trim().toLowerCase() !== value.trim().toLowerCase();
}

export interface ConsentTarget {
  channel: Channel;
  projectName: string;
}

/** The channel a link names when its token is right for it; null otherwise (a changed address, a deleted channel, a forged link). */
export async function channelForLink(db: Db, secret: string, purpose: ConsentPurpose, code: string, token: string): Promise<ConsentTarget | null> {
  if (code.length > 64 || token.length !== 32) return null;
  const found = await db.channel.findUnique({ where: { code }, include: { project: { select: { name: true } } } });
  if (!found || !channelKind(found.kind)?.confirmsRecipient) return null;
  const expected = Buffer.from(consentToken(secret, purpose, found));
  const given = Buffer.from(token);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const { project, ...channel } = found;
  return { channel, projectName: project.name };
}

/** The recipient opened the verification link: alerts reach them from now on. Opening it again changes nothing. */
export async function confirmRecipient(db: Db, secret: string, code: string, token: string, now: Date): Promise<ConsentTarget | null> {
  const target = await channelForLink(db, secret, 'verify', code, token);
  if (!target || target.channel.emailVerified) return target;
  return db.$transaction(async (tx) => {
    const channel = await tx.channel.update({ where: { id: target.channel.id }, data: { emailVerified: true } });
    await recordAudit(tx, RECIPIENT, channel.projectId, { action: 'channel.verified', targetKind: 'channel', targetId: channel.code, targetName: channel.name }, now);
    return { channel, projectName: target.projectName };
  });
}

/**
 * The recipient unsubscribed: the channel is disabled and unverified (kept, with its checks, so
 * the project sees what happened; enabling it sends nothing until the recipient verifies again).
 */
export async function unsubscribeRecipient(db: Db, secret: string, code: string, token: string, now: Date): Promise<ConsentTarget | null> {
  const target = await channelForLink(db, secret, 'unsubscribe', code, token);
  if (!target) return null;
  if (target.channel.disabled && !target.channel.emailVerified) return target;
  return db.$transaction(async (tx) => {
    const channel = await tx.channel.update({ where: { id: target.channel.id }, data: { disabled: true, emailVerified: false } });
    await recordAudit(tx, RECIPIENT, channel.projectId, { action: 'channel.unsubscribed', targetKind: 'channel', targetId: channel.code, targetName: channel.name }, now);
    return { channel, projectName: target.projectName };
  });
}

/** The message that asks the recipient to confirm (sent with the identity mail's settings). */
export function verificationMail(siteRoot: string, siteName: string, secret: string, target: ConsentTarget): IdentityMail {
  return {
    to: target.channel.value,
    subject: `Verify email address on ${siteName}`,
    intro: [
      `The ${siteName} project "${target.projectName}" wants to send its alerts (checks going down and coming back up) to this address.`,
      'Nothing is sent until you confirm.',
    ],
    link: { url: consentLink(siteRoot, secret, 'verify', target.channel), label: 'Confirm this address' },
    outro: ['If you did not expect this, ignore this message: no alerts will reach you.'],
  };
}

/** How soon the link may be sent again to the same channel: often enough to fix a typo, too rarely to pester. */
export const RESEND_AFTER_MS = 5 * 60_000;

export interface ConsentMailDeps {
  db: Db;
  /** Where links point, how mail is signed and sent (the identity mail's settings). */
  mail: Pick<IdentitySettings, 'siteRoot' | 'siteName' | 'email'>;
  secretKey: string | null | undefined;
}

/**
 * Mails the recipient the link that confirms a channel waiting for consent. Refuses a channel
 * that does not wait (already confirmed, or a kind without consent), and a second mail within
 * RESEND_AFTER_MS (the audit log keeps when each went: "channel.verification_sent").
 */
export async function askRecipient(deps: ConsentMailDeps, channel: Channel, by: Actor, now: Date): Promise<void> {
  if (!channelKind(channel.kind)?.confirmsRecipient) throw validationError('only email channels ask their recipient to confirm');
  if (channel.emailVerified) throw validationError('the address is already confirmed');
  const recent = await deps.db.auditEntry.findFirst({
    where: { projectId: channel.projectId, action: 'channel.verification_sent', targetId: channel.code, at: { gt: new Date(now.getTime() - RESEND_AFTER_MS) } },
    select: { id: true },
  });
  if (recent) throw validationError('the confirmation link was sent a moment ago: check the mailbox (and its spam folder) first');
  const project = await deps.db.project.findUniqueOrThrow({ where: { id: channel.projectId }, select: { name: true } });
  const secret = await secretKey(deps.db, deps.secretKey);
  await sendIdentityMail(deps.mail as IdentitySettings, verificationMail(deps.mail.siteRoot, deps.mail.siteName, secret, { channel, projectName: project.name }));
  await recordAudit(deps.db, by, channel.projectId, { action: 'channel.verification_sent', targetKind: 'channel', targetId: channel.code, targetName: channel.name }, now);
}

/**
 * After a channel is created (`previousValue` null) or changed: a new address that waits for
 * its recipient gets the link now; the same address is not asked again on every save. A failed
 * mail does not undo the change: the channel shows that it waits, and sendChannelVerification
 * (askRecipient) sends again and says why not.
 */
export async function askIfWaiting(deps: ConsentMailDeps & { log?: { warn(o: object, m: string): void } }, channel: Channel, previousValue: string | null, by: Actor, now: Date): Promise<void> {
  if (channel.emailVerified || channel.value === previousValue) return;
  try {
    await askRecipient(deps, channel, by, now);
  } catch (err) {
    deps.log?.warn({ err, channel: channel.code }, 'the confirmation link could not be mailed');
  }
}
