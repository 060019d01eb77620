// The SMTP listener for email pings (smtp-server). Recipients are checked at RCPT: another
// domain, a malformed mailbox or one no check answers to is refused with 550 and nothing is
// recorded. The message is pinged to every accepted recipient's check, and DATA is answered
// 250 only after those pings have committed (a failure answers 451: the sender retries).
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import { simpleParser } from 'mailparser';
import type { Check } from '../../generated/prisma/client.ts';
import { DomainError } from '../../shared/errors.ts';
import type { MonitoringServices } from '../services.ts';
import { classifyEmail, htmlAsText, type EmailText } from './classify.ts';
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

export async function startEmailPings(deps: MonitoringServices, o: EmailPingOptions): Promise<EmailPingListener> {
  // Accepted recipients' check ids, per session (the envelope may name several), keyed by the
  // lower-cased address: smtp-server keeps one envelope entry per address, so a repeated RCPT
  // is one recipient, not a second ping.
  const accepted = new WeakMap<SMTPServerSession, Map<string, number>>();
  const refuse = (cb: (err?: Error) => void, code: number, message: string) => {
    deps.events.emit('inboundEmail', { outcome: 'refused' });
    cb(smtpError(code, message));
  };
  // Messages between DATA and their reply; on close, the other clients are hung up once these
  // have been answered.
  let receiving = 0;
  let hangUpIdle: (() => void) | null = null;

  const server = new SMTPServer({
    name: o.domain,
    banner: 'cron-campus-gateway email pings',
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    size: MAX_MESSAGE_BYTES,
    // Each session may buffer up to MAX_MESSAGE_BYTES: bound the memory a flood can take.
    maxClients: 100,
    logger: false,
    // The client's host name is logged nowhere and no Received header is written: a reverse
    // DNS lookup would only delay every greeting (up to 1.5 s with a slow resolver).
    disableReverseLookup: true,
    onMailFrom(_address, session, cb) {
      accepted.set(session, new Map());
      cb();
    },
    onRcptTo(address, session, cb) {
      const verdict = parseRecipient(address.address, o.domain);
      if (!verdict.ok) return refuse(cb, 550, verdict.reason === 'domain' ? '5.1.1 Recipient rejected' : '5.1.1 Invalid mailbox');
      findMailboxCheck(deps.db, verdict.mailbox).then(
        (checkId) => {
          if (checkId === null) return refuse(cb, 550, '5.1.1 Unknown mailbox');
          const ids = accepted.get(session) ?? new Map<string, number>();
          ids.set(address.address.toLowerCase(), checkId);
          accepted.set(session, ids);
          cb();
        },
        (err) => {
          o.log?.error({ err }, 'email ping recipient lookup failed');
          cb(smtpError(451, '4.3.0 Temporary failure, try again'));
        },
      );
    },
    onData(stream, session, reply) {
      receiving++;
      let over = false;
      const finished = () => {
        if (over) return;
        over = true;
        if (--receiving === 0) hangUpIdle?.();
      };
      const cb = (err?: Error) => {
        reply(err);
        finished();
      };
      // The client left in the middle of the message: nothing to record, nobody to answer.
      stream.once('error', finished);
      const chunks: Buffer[] = [];
      let bytes = 0;
      stream.on('data', (c: Buffer) => {
        // Past the limit the message is refused anyway: read the rest, keep none of it.
        bytes += c.length;
        if (bytes <= MAX_MESSAGE_BYTES) chunks.push(c);
      });
      stream.on('end', () => {
        if (stream.sizeExceeded || bytes > MAX_MESSAGE_BYTES) return refuse(cb, 552, '5.3.4 Message too big');
        const raw = Buffer.concat(chunks);
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        const checkIds = [...(accepted.get(session)?.values() ?? [])];
        deliverPings(deps, checkIds, raw, from, plainAddress(session.remoteAddress)).then(
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
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // smtp-server waits closeTimeout (30 s) for its clients to leave: one idling (or never
        // saying QUIT) would hold the shutdown that long. So once no message is being received,
        // answer 421 and hang up, as smtp-server itself does at that deadline.
        hangUpIdle = () => {
          for (const connection of server.connections) {
            connection.send(421, 'Server shutting down');
            connection.close();
          }
        };
        if (receiving === 0) hangUpIdle();
      }),
  };
}

const NO_TEXT: EmailText = { subject: '', plain: null, htmlText: null };

async function emailText(raw: Buffer): Promise<EmailText> {
  // A message no parser makes sense of has no text to match: its keywords match nothing.
  const parsed = await simpleParser(raw, { skipHtmlToText: true, skipImageLinks: true, skipTextToHtml: true, skipTextLinks: true }).catch(() => null);
  if (!parsed) return NO_TEXT;
  const html = typeof parsed.html === 'string' ? parsed.html : null;
  return {
    subject: parsed.subject ?? '',
    // skipHtmlToText: mailparser would otherwise fill `text` from an HTML-only message with its
    // own conversion (headings upper-cased, link URLs added); the HTML is searched once, below.
    plain: parsed.text || null,
    htmlText: html === null ? null : htmlOrNothing(html),
  };
}

function htmlOrNothing(html: string): string | null {
  try {
    return htmlAsText(html);
  } catch {
    // HTML the converter chokes on has no text: retrying the message would not change that.
    return null;
  }
}

/** An IPv4 peer of a dual-stack socket as plain IPv4, as the HTTP ping routes record it. */
const plainAddress = (addr: string) => (addr.startsWith('::ffff:') ? addr.slice(7) : addr);

async function deliverPings(deps: MonitoringServices, checkIds: number[], raw: Buffer, from: string, remoteAddr: string) {
  // Parsed once, and only if some check filters on content: the common case needs no parse.
  const filtering = await deps.db.check.count({ where: { id: { in: checkIds }, OR: [{ filterSubject: true }, { filterBody: true }] } });
  const text = filtering ? await emailText(raw) : NO_TEXT;
  const classify = (check: Check) => classifyEmail(check, text);
  const results = await Promise.allSettled(
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
  // A check deleted since RCPT just misses its ping (Healthchecks drops it too); any other
  // failure fails the message, so the sender tries again.
  for (const r of results) {
    if (r.status === 'rejected' && !(r.reason instanceof DomainError && r.reason.code === 'NOT_FOUND')) throw r.reason;
  }
}
