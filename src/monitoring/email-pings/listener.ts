// The SMTP listener for email pings (smtp-server). Recipients are checked at RCPT: another
// domain, a malformed mailbox or one no check answers to is refused with 550 and nothing is
// recorded. The message is pinged to every accepted recipient's check, and DATA is answered
// 250 only after those pings have committed (a failure answers 451: the sender retries).
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import { simpleParser } from 'mailparser';
import { convert as htmlToText } from 'html-to-text';
import type { Check } from '../../generated/prisma/client.ts';
import type { MonitoringDeps } from '../context.ts';
import { classifyEmail, type EmailText } from './classify.ts';
import { findMailboxCheck, parseRecipient } from './mailbox.ts';

/** Larger messages are refused (552); the ping keeps PING_BODY_LIMIT bytes of what is accepted. */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
const UA_MAX = 200;

export interface EmailPingListener {
  port: number;
  close(): Promise<void>;
}

export interface EmailPingOptions {
  port: number;
  host: string;
  domain: string;
  log?: Logger;
}

const smtpError = (code: number, message: string) => Object.assign(new Error(message), { responseCode: code });

export async function startEmailPings(deps: MonitoringDeps, o: EmailPingOptions): Promise<EmailPingListener> {
  // Accepted recipients' check ids, per session (the envelope may name several).
  const accepted = new WeakMap<SMTPServerSession, number[]>();
  const refuse = (cb: (err?: Error) => void, code: number, message: string) => {
    deps.events.emit('inboundEmail', { outcome: 'refused' });
    cb(smtpError(code, message));
  };

  const server = new SMTPServer({
    name: o.domain,
    banner: 'cron-campus-gateway email pings',
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    size: MAX_MESSAGE_BYTES,
    logger: false,
    onMailFrom(_address, session, cb) {
      accepted.set(session, []);
      cb();
    },
    onRcptTo(address, session, cb) {
      const verdict = parseRecipient(address.address, o.domain);
      if (!verdict.ok) return refuse(cb, 550, verdict.reason === 'domain' ? '5.1.1 Recipient rejected' : '5.1.1 Invalid mailbox');
      findMailboxCheck(deps.db, verdict.mailbox).then(
        (checkId) => {
          if (checkId === null) return refuse(cb, 550, '5.1.1 Unknown mailbox');
          const ids = accepted.get(session) ?? [];
          ids.push(checkId);
          accepted.set(session, ids);
          cb();
        },
        (err) => {
          o.log?.error({ err }, 'email ping recipient lookup failed');
          cb(smtpError(451, '4.3.0 Temporary failure, try again'));
        },
      );
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (stream.sizeExceeded) return refuse(cb, 552, '5.3.4 Message too big');
        const raw = Buffer.concat(chunks);
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        deliverPings(deps, accepted.get(session) ?? [], raw, from, session.remoteAddress).then(
          () => {
            deps.events.emit('inboundEmail', { outcome: 'accepted' });
            cb();
          },
          (err) => {
            o.log?.error({ err }, 'email ping could not be recorded');
            cb(smtpError(451, '4.3.0 Temporary failure, try again'));
          },
        );
      });
    },
  });
  server.on('error', (err) => o.log?.warn({ err }, 'smtp listener error'));
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(o.port, o.host, () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  o.log?.info({ port, domain: o.domain }, 'email pings listening');
  return {
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const NO_TEXT: EmailText = { subject: '', plain: null, htmlText: null };

async function emailText(raw: Buffer): Promise<EmailText> {
  // A message no parser makes sense of has no text to match: its keywords match nothing.
  const parsed = await simpleParser(raw, { skipImageLinks: true, skipTextToHtml: true, skipTextLinks: true }).catch(() => null);
  if (!parsed) return NO_TEXT;
  const html = typeof parsed.html === 'string' ? parsed.html : null;
  return {
    subject: parsed.subject ?? '',
    plain: parsed.text ?? null,
    htmlText: html === null ? null : htmlToText(html, { wordwrap: false }),
  };
}

async function deliverPings(deps: MonitoringDeps, checkIds: number[], raw: Buffer, from: string, remoteAddr: string) {
  // Parsed once, and only if some check filters on content: the common case needs no parse.
  const filtering = await deps.db.check.count({ where: { id: { in: checkIds }, OR: [{ filterSubject: true }, { filterBody: true }] } });
  const text = filtering ? await emailText(raw) : NO_TEXT;
  const classify = (check: Check) => classifyEmail(check, text);
  await Promise.all(
    checkIds.map((checkId) =>
      deps.pings.submit(
        { checkId },
        {
          signal: 'success',
          classify,
          method: '',
          scheme: 'email',
          remoteAddr,
          ua: `Email from ${from}`.slice(0, UA_MAX),
          body: raw,
        },
      ),
    ),
  );
}
