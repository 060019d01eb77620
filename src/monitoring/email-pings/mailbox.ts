// Which check a recipient address pings: "<uuid>@<domain>" or "<ping_key>+<slug>@<domain>",
// the domain being PING_EMAIL_DOMAIN. Parsing is pure; lookup needs the database.
import type { Db } from '../../db/client.ts';
import { hashKey } from '../projects/keys.ts';

export type Mailbox = { code: string } | { pingKey: string; slug: string };

export type RecipientVerdict = { ok: true; mailbox: Mailbox } | { ok: false; reason: 'domain' | 'mailbox' };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const KEY_AND_SLUG = /^([a-z0-9]{16,64})\+([a-z0-9_-]{1,100})$/;

export function parseRecipient(address: string, domain: string): RecipientVerdict {
  const at = address.lastIndexOf('@');
  if (at < 1) return { ok: false, reason: 'mailbox' };
  if (address.slice(at + 1).toLowerCase() !== domain.toLowerCase()) return { ok: false, reason: 'domain' };
  const local = address.slice(0, at);
  const lower = local.toLowerCase();
  if (UUID.test(lower)) return { ok: true, mailbox: { code: lower } };
  // Ping keys and slugs are lower-case; a mailer may not keep the case, so neither do we.
  const m = KEY_AND_SLUG.exec(lower);
  if (m) return { ok: true, mailbox: { pingKey: m[1]!, slug: m[2]! } };
  return { ok: false, reason: 'mailbox' };
}

/** The check's id, or null when no check answers to the mailbox (or a slug is ambiguous). */
export async function findMailboxCheck(db: Db, mailbox: Mailbox): Promise<number | null> {
  if ('code' in mailbox) {
    return (await db.check.findUnique({ where: { code: mailbox.code }, select: { id: true } }))?.id ?? null;
  }
  const project = await db.project.findUnique({ where: { pingKeyHash: hashKey(mailbox.pingKey) }, select: { id: true } });
  if (!project) return null;
  const checks = await db.check.findMany({ where: { projectId: project.id, slug: mailbox.slug }, select: { id: true }, take: 2 });
  return checks.length === 1 ? checks[0]!.id : null;
}
