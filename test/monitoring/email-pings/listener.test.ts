// Email pings over real SMTP: nodemailer (and, for exact replies, a raw socket) talks to the
// gateway's listener; the tests assert SMTP replies, the stored pings and the checks' status.
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer';
import { gql } from '../../helpers/gql.ts';
import { createWorld, T0, type World } from '../../helpers/world.ts';
import { useWorld } from '../../helpers/fixtures.ts';
import type { PingRequest } from '../../../src/monitoring/pings/request.ts';
import type { PingTarget } from '../../../src/monitoring/pings/ingest.ts';

const DOMAIN = 'hc.example.org';
const SENDER = 'cron@backup.example.net';

const w = useWorld({ SMTPD_PORT: '0', PING_EMAIL_DOMAIN: DOMAIN });

// ---- helpers ---------------------------------------------------------------------------------

const newCheck = async (world: World, body: Record<string, unknown> = {}, key = world.alice.api_key) => {
  const res = await world.api('POST', '/api/v3/checks/', { body: { name: 'mailed', timeout: 3600, grace: 60, ...body }, key });
  expect(res.status).toBe(201);
  return res.json.uuid as string;
};
const checkRow = (world: World, code: string) => world.app.db.check.findUniqueOrThrow({ where: { code } });
const pingsOf = (world: World, code: string) => world.app.db.ping.findMany({ where: { check: { code } }, orderBy: { n: 'asc' } });
const kindsOf = async (world: World, code: string) => (await pingsOf(world, code)).map((p) => p.kind);

/** Sends one message with a fresh connection (nodemailer closes it after the message). */
async function send(world: World, mail: Mail.Options) {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: world.app.smtpd!.port, secure: false, ignoreTLS: true });
  try {
    return await transport.sendMail({ from: SENDER, subject: 'Backup report', text: 'Nothing to report.', ...mail });
  } finally {
    transport.close();
  }
}

/** The error a refused send rejects with. */
async function refusal(world: World, mail: Mail.Options): Promise<{ responseCode: number; response: string; rejected?: string[] }> {
  const err = await send(world, mail).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, 'the message should have been refused').not.toBeNull();
  return err as { responseCode: number; response: string; rejected?: string[] };
}

/** A message exactly as a mailer sends it (CRLF line ends). */
const rawMessage = (lines: string[]) => lines.join('\r\n') + '\r\n';

/** Sums a metric's samples whose labels include `labels`. */
async function metric(world: World, name: string, labels: Record<string, string> = {}) {
  const text = await (await fetch(`${world.url}/metrics`)).text();
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  let total = 0;
  for (const line of text.split('\n')) {
    const m = line.match(/^([a-zA-Z_:][\w:]*)(\{[^}]*\})? (\S+)$/);
    if (m && m[1] === name && wanted.every((l) => (m[2] ?? '').includes(l))) total += Number(m[3]);
  }
  return total;
}
const inbound = (world: World, outcome: 'accepted' | 'refused') => metric(world, 'gateway_inbound_emails_total', { outcome });

/** A raw SMTP conversation, for replies nodemailer hides (repeated RCPT, RSET, null sender). */
async function dialog(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  socket.setEncoding('utf8');
  let buffer = '';
  const replies: string[] = [];
  const waiters: Array<(reply: string) => void> = [];
  socket.on('data', (chunk: string) => {
    buffer += chunk;
    // A reply is complete with its "NNN text" line (earlier lines of a long one are "NNN-text").
    for (let m; (m = /^(?:\d{3}-[^\r\n]*\r\n)*\d{3}(?: [^\r\n]*)?\r\n/.exec(buffer)); ) {
      buffer = buffer.slice(m[0].length);
      const reply = m[0].trimEnd();
      const waiter = waiters.shift();
      if (waiter) waiter(reply);
      else replies.push(reply);
    }
  });
  const reply = () => new Promise<string>((resolve) => (replies.length ? resolve(replies.shift()!) : waiters.push(resolve)));
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  expect(await reply()).toMatch(/^220 /);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return {
    /** Sends a command line (or DATA's message ending in "."), resolves with the reply. */
    command(line: string) {
      socket.write(`${line}\r\n`);
      return reply();
    },
    async quit() {
      socket.write('QUIT\r\n');
      await closed;
    },
    /** The next reply the server sends unasked (a 421 when it shuts down). */
    reply,
    closed,
  };
}

/** Replaces the ingest's submit for one test; `restore()` puts the real one back. */
function interceptSubmit(world: World, wrap: (real: (t: PingTarget, r: PingRequest) => Promise<void>, t: PingTarget, r: PingRequest) => Promise<void>) {
  const ingest = world.app.deps.pings as unknown as { submit: (t: PingTarget, r: PingRequest) => Promise<void> };
  const real = ingest.submit.bind(ingest);
  ingest.submit = (t, r) => wrap(real, t, r);
  return { restore: () => delete (ingest as { submit?: unknown }).submit };
}

// ---- tests -----------------------------------------------------------------------------------

describe('email pings: addressing', () => {
  it('pings the check addressed by uuid: scheme email, no method, the sender in the user agent, the raw message as body', async () => {
    const code = await newCheck(w);
    const raw = rawMessage([
      `From: Backup Robot <${SENDER}>`,
      `To: ${code}@${DOMAIN}`,
      'Subject: Nightly backup',
      'Message-ID: <1@backup.example.net>',
      'Content-Type: text/plain; charset=utf-8',
      '',
      'Backup finished.',
      '.leading dot survives dot-stuffing',
    ]);
    w.clock.set(T0);
    const info = await send(w, { envelope: { from: SENDER, to: [`${code}@${DOMAIN}`] }, raw });
    expect(info.response).toMatch(/^250 /);
    expect(info.accepted).toEqual([`${code}@${DOMAIN}`]);

    const [ping, ...more] = await pingsOf(w, code);
    expect(more).toEqual([]);
    expect(ping).toMatchObject({ n: 1, kind: 'success', scheme: 'email', method: '', ua: `Email from ${SENDER}`, remoteAddr: '127.0.0.1', rid: null, exitStatus: null, createdAt: T0 });
    expect(Buffer.from(ping!.body!).toString('utf8')).toBe(raw);
    expect(await checkRow(w, code)).toMatchObject({ status: 'up', nPings: 1, lastPing: T0 });
    const flips = await w.app.db.flip.findMany({ where: { check: { code } } });
    expect(flips.map((f) => [f.oldStatus, f.newStatus])).toEqual([['new', 'up']]);

    // The REST API shows it as Healthchecks does, and serves the message as the body.
    const list = await w.api('GET', `/api/v3/checks/${code}/pings/`);
    expect(list.status).toBe(200);
    expect(list.json.pings).toEqual([
      expect.objectContaining({ type: 'success', n: 1, scheme: 'email', method: '', ua: `Email from ${SENDER}`, remote_addr: '127.0.0.1', body_url: `${w.url}/api/v3/checks/${code}/pings/1/body` }),
    ]);
    const body = await fetch(`${w.url}/api/v3/checks/${code}/pings/1/body`, { headers: { 'X-Api-Key': w.alice.api_key } });
    expect(body.status).toBe(200);
    expect(await body.text()).toBe(raw);
  });

  it('pings the check with that slug in the project whose ping key is <ping_key>+<slug>', async () => {
    const mine = await newCheck(w, { slug: 'nightly-backup' });
    const theirs = await newCheck(w, { slug: 'nightly-backup' }, w.bob.api_key);
    await send(w, { to: `${w.alice.ping_key}+nightly-backup@${DOMAIN}` });
    expect(await kindsOf(w, mine)).toEqual(['success']);
    expect(await kindsOf(w, theirs)).toEqual([]);
    await send(w, { to: `${w.bob.ping_key}+nightly-backup@${DOMAIN}` });
    expect(await kindsOf(w, theirs)).toEqual(['success']);
    expect(await kindsOf(w, mine)).toEqual(['success']);
    expect((await pingsOf(w, mine))[0]).toMatchObject({ scheme: 'email', method: '', ua: `Email from ${SENDER}` });
    expect((await checkRow(w, mine)).status).toBe('up');
  });

  it('accepts upper-case domains, uuids, ping keys and slugs', async () => {
    const code = await newCheck(w, { slug: 'upper' });
    await send(w, { to: `${code.toUpperCase()}@HC.EXAMPLE.ORG` });
    await send(w, { to: `${code}@Hc.Example.Org` });
    await send(w, { to: `${w.alice.ping_key.toUpperCase()}+UPPER@${DOMAIN.toUpperCase()}` });
    expect(await kindsOf(w, code)).toEqual(['success', 'success', 'success']);
  });

  it('pings every accepted recipient of one message, in both projects, and refuses only the bad ones', async () => {
    const a = await newCheck(w);
    const b = await newCheck(w, { slug: 'multi-b' });
    const c = await newCheck(w, {}, w.bob.api_key);
    const refusedBefore = await inbound(w, 'refused');
    const acceptedBefore = await inbound(w, 'accepted');
    const info = await send(w, {
      to: [`${a}@${DOMAIN}`, `nobody@${DOMAIN}`, `${w.alice.ping_key}+multi-b@${DOMAIN}`, `${a}@elsewhere.example.org`],
      cc: `${c}@${DOMAIN}`,
    });
    expect(info.response).toMatch(/^250 /);
    expect(info.accepted).toEqual([`${a}@${DOMAIN}`, `${w.alice.ping_key}+multi-b@${DOMAIN}`, `${c}@${DOMAIN}`]);
    expect(info.rejected).toEqual([`nobody@${DOMAIN}`, `${a}@elsewhere.example.org`]);
    expect(info.rejectedErrors!.map((e) => (e as { response?: string }).response)).toEqual(['550 5.1.1 Invalid mailbox', '550 5.1.1 Recipient rejected']);
    for (const code of [a, b, c]) {
      expect(await kindsOf(w, code)).toEqual(['success']);
      expect((await checkRow(w, code)).status).toBe('up');
    }
    // One message accepted, two recipients refused.
    expect((await inbound(w, 'accepted')) - acceptedBefore).toBe(1);
    expect((await inbound(w, 'refused')) - refusedBefore).toBe(2);
  });

  it('pings a check twice when two addresses of one message name it, but a repeated address once', async () => {
    const code = await newCheck(w, { slug: 'twice' });
    await send(w, { to: [`${code}@${DOMAIN}`, `${w.alice.ping_key}+twice@${DOMAIN}`] });
    expect(await kindsOf(w, code)).toEqual(['success', 'success']);

    const smtp = await dialog(w.app.smtpd!.port);
    expect(await smtp.command('EHLO client.example.net')).toMatch(/^250[- ]/);
    expect(await smtp.command(`MAIL FROM:<${SENDER}>`)).toMatch(/^250 /);
    expect(await smtp.command(`RCPT TO:<${code}@${DOMAIN}>`)).toMatch(/^250 /);
    expect(await smtp.command(`RCPT TO:<${code.toUpperCase()}@${DOMAIN}>`)).toMatch(/^250 /);
    expect(await smtp.command('DATA')).toMatch(/^354 /);
    expect(await smtp.command('Subject: once\r\n\r\nhello\r\n.')).toMatch(/^250 /);
    await smtp.quit();
    expect(await kindsOf(w, code)).toEqual(['success', 'success', 'success']);
  });

  it('forgets recipients of a transaction reset with RSET, and records an empty sender as such', async () => {
    const dropped = await newCheck(w);
    const kept = await newCheck(w);
    const smtp = await dialog(w.app.smtpd!.port);
    await smtp.command('EHLO client.example.net');
    await smtp.command(`MAIL FROM:<${SENDER}>`);
    expect(await smtp.command(`RCPT TO:<${dropped}@${DOMAIN}>`)).toMatch(/^250 /);
    expect(await smtp.command('RSET')).toMatch(/^250 /);
    expect(await smtp.command('MAIL FROM:<>')).toMatch(/^250 /);
    expect(await smtp.command(`RCPT TO:<${kept}@${DOMAIN}>`)).toMatch(/^250 /);
    expect(await smtp.command('DATA')).toMatch(/^354 /);
    expect(await smtp.command('Subject: bounce\r\n\r\nhello\r\n.')).toMatch(/^250 /);
    // A second message on the same connection goes to its own recipients only.
    await smtp.command(`MAIL FROM:<${SENDER}>`);
    await smtp.command(`RCPT TO:<${dropped}@${DOMAIN}>`);
    await smtp.command('DATA');
    expect(await smtp.command('Subject: second\r\n\r\nhello\r\n.')).toMatch(/^250 /);
    await smtp.quit();
    expect((await pingsOf(w, kept)).map((p) => p.ua)).toEqual(['Email from ']);
    expect((await pingsOf(w, dropped)).map((p) => p.ua)).toEqual([`Email from ${SENDER}`]);
  });
});

describe('email pings: refused recipients', () => {
  const cases: Array<[string, (code: string) => string, string]> = [
    ['another domain', (code) => `${code}@example.org`, '550 5.1.1 Recipient rejected'],
    ['a sub-domain', (code) => `${code}@mail.${DOMAIN}`, '550 5.1.1 Recipient rejected'],
    ['a mailbox in neither form', () => `backups@${DOMAIN}`, '550 5.1.1 Invalid mailbox'],
    ['a uuid with a digit missing', (code) => `${code.slice(0, -1)}@${DOMAIN}`, '550 5.1.1 Invalid mailbox'],
    ['a key without a slug', () => `${w.alice.ping_key}+@${DOMAIN}`, '550 5.1.1 Invalid mailbox'],
    ['a well-formed uuid no check has', () => `00000000-0000-4000-8000-000000000000@${DOMAIN}`, '550 5.1.1 Unknown mailbox'],
    ['a ping key no project has', () => `${'x'.repeat(32)}+refused@${DOMAIN}`, '550 5.1.1 Unknown mailbox'],
    ['a slug the project does not have', () => `${w.alice.ping_key}+no-such-slug@${DOMAIN}`, '550 5.1.1 Unknown mailbox'],
    ['a slug of another project', () => `${w.bob.ping_key}+refused@${DOMAIN}`, '550 5.1.1 Unknown mailbox'],
  ];

  it.each(cases)('refuses %s with 550, records nothing and counts the refusal', async (_name, address, reply) => {
    const code = await newCheck(w, { slug: 'refused' });
    const pingsBefore = await w.app.db.ping.count();
    const refusedBefore = await inbound(w, 'refused');
    const acceptedBefore = await inbound(w, 'accepted');
    const err = await refusal(w, { to: address(code) });
    expect(err.responseCode).toBe(550);
    expect(err.response).toBe(reply);
    expect(err.rejected).toEqual([address(code)]);
    expect(await w.app.db.ping.count()).toBe(pingsBefore);
    expect(await checkRow(w, code)).toMatchObject({ nPings: 0, status: 'new' });
    expect((await inbound(w, 'refused')) - refusedBefore).toBe(1);
    expect((await inbound(w, 'accepted')) - acceptedBefore).toBe(0);
  });

  it('refuses a slug two checks of the project share, as Healthchecks calls it ambiguous', async () => {
    const one = await newCheck(w, { slug: 'shared-slug' });
    const two = await newCheck(w, { slug: 'shared-slug' });
    const err = await refusal(w, { to: `${w.alice.ping_key}+shared-slug@${DOMAIN}` });
    expect(err.response).toBe('550 5.1.1 Unknown mailbox');
    expect(await kindsOf(w, one)).toEqual([]);
    expect(await kindsOf(w, two)).toEqual([]);
  });

  it('answers the exact SMTP replies at RCPT and keeps the transaction going', async () => {
    const code = await newCheck(w);
    const smtp = await dialog(w.app.smtpd!.port);
    await smtp.command('EHLO client.example.net');
    await smtp.command(`MAIL FROM:<${SENDER}>`);
    expect(await smtp.command(`RCPT TO:<${code}@example.org>`)).toBe('550 5.1.1 Recipient rejected');
    expect(await smtp.command(`RCPT TO:<postmaster@${DOMAIN}>`)).toBe('550 5.1.1 Invalid mailbox');
    expect(await smtp.command(`RCPT TO:<00000000-0000-4000-8000-000000000000@${DOMAIN}>`)).toBe('550 5.1.1 Unknown mailbox');
    // With no accepted recipient there is nothing to send.
    expect(await smtp.command('DATA')).toMatch(/^503 /);
    expect(await smtp.command(`RCPT TO:<${code}@${DOMAIN}>`)).toMatch(/^250 /);
    expect(await smtp.command('DATA')).toMatch(/^354 /);
    expect(await smtp.command('Subject: hi\r\n\r\nhello\r\n.')).toMatch(/^250 /);
    await smtp.quit();
    expect(await kindsOf(w, code)).toEqual(['success']);
  });
});

describe('email pings: classification', () => {
  it('calls every email a success when neither filter_subject nor filter_body is on', async () => {
    const code = await newCheck(w, { success_kw: 'OK', failure_kw: 'FAIL', filter_default_fail: true });
    await send(w, { to: `${code}@${DOMAIN}`, subject: 'Backup FAIL', text: 'FAIL' });
    expect(await kindsOf(w, code)).toEqual(['success']);
    expect((await checkRow(w, code)).status).toBe('up');
  });

  it('with filter_subject, looks for failure, then success, then start keywords in the subject', async () => {
    const code = await newCheck(w, { filter_subject: true, start_kw: 'started', success_kw: 'succeeded, OK', failure_kw: 'FAILED, ERROR' });
    const to = `${code}@${DOMAIN}`;
    w.clock.set(T0);
    await send(w, { to, subject: 'Backup started' });
    expect(await checkRow(w, code)).toMatchObject({ status: 'new', lastStart: T0 });
    await send(w, { to, subject: 'Backup OK' });
    expect((await checkRow(w, code)).status).toBe('up');
    // Failure keywords win over success ones in the same subject.
    await send(w, { to, subject: 'Backup succeeded with ERROR', text: 'OK' });
    expect((await checkRow(w, code)).status).toBe('down');
    await send(w, { to, subject: 'Backup succeeded' });
    expect((await checkRow(w, code)).status).toBe('up');
    // Keywords are case-sensitive and the body is not searched: ignored, status unchanged.
    await send(w, { to, subject: 'backup failed', text: 'FAILED' });
    expect(await checkRow(w, code)).toMatchObject({ status: 'up', nPings: 5 });
    expect(await kindsOf(w, code)).toEqual(['start', 'success', 'fail', 'success', 'ign']);
    const list = await w.api('GET', `/api/v3/checks/${code}/pings/`);
    expect(list.json.pings.map((p: { type: string }) => p.type)).toEqual(['ign', 'success', 'fail', 'success', 'start']);
  });

  it('fails an email no keyword matches when filter_default_fail is on', async () => {
    const code = await newCheck(w, { filter_subject: true, success_kw: 'OK', filter_default_fail: true });
    await send(w, { to: `${code}@${DOMAIN}`, subject: 'OK' });
    await send(w, { to: `${code}@${DOMAIN}`, subject: 'Weekly report' });
    expect(await kindsOf(w, code)).toEqual(['success', 'fail']);
    expect((await checkRow(w, code)).status).toBe('down');
  });

  it('decodes an encoded subject before matching', async () => {
    const code = await newCheck(w, { filter_subject: true, success_kw: 'réussie', failure_kw: 'échec' });
    await send(w, { to: `${code}@${DOMAIN}`, subject: 'Sauvegarde réussie ✓' });
    await send(w, { to: `${code}@${DOMAIN}`, subject: 'Sauvegarde en échec' });
    expect(await kindsOf(w, code)).toEqual(['success', 'fail']);
  });

  it('with filter_body, searches the plain-text part but not the subject', async () => {
    const code = await newCheck(w, { filter_body: true, success_kw: 'all good', failure_kw: 'ERROR' });
    const to = `${code}@${DOMAIN}`;
    await send(w, { to, subject: 'ERROR report', text: 'Backup: all good.' });
    await send(w, { to, subject: 'all good', text: 'disk full, ERROR 28' });
    await send(w, { to, subject: 'all good', text: 'nothing to see' });
    expect(await kindsOf(w, code)).toEqual(['success', 'fail', 'ign']);
  });

  it('with filter_body, searches an HTML-only message as text: tags split no keyword, URLs and alt texts are not text', async () => {
    const code = await newCheck(w, { filter_body: true, success_kw: 'Backup succeeded', failure_kw: 'FAIL' });
    const to = `${code}@${DOMAIN}`;
    // <b>FA</b>IL reads FAIL.
    await send(w, { to, text: undefined, html: '<p>Backup <b>FA</b>IL at <i>03:00</i></p>' });
    // A heading keeps its case (html-to-text's default would upper-case it and miss the keyword).
    await send(w, { to, text: undefined, html: '<h1>Backup succeeded</h1>' });
    // Neither a link's URL nor an image's alt text is searched.
    await send(w, { to, text: undefined, html: '<p>Backup succeeded, <a href="https://example.org/FAIL">logs</a> <img alt="FAIL" src="x.png"></p>' });
    // Entities are decoded and whitespace runs are one space.
    await send(w, { to, text: undefined, html: '<div>Backup&nbsp;\n   succeeded</div>' });
    // No keyword at all: ignored.
    await send(w, { to, text: undefined, html: '<table><tr><th>Status</th><td>unknown</td></tr></table>' });
    expect(await kindsOf(w, code)).toEqual(['fail', 'success', 'success', 'success', 'ign']);
  });

  it('with filter_body, searches both parts of a text and HTML message: a failure in either fails', async () => {
    const code = await newCheck(w, { filter_body: true, success_kw: 'SUCCESS', failure_kw: 'FAIL' });
    const to = `${code}@${DOMAIN}`;
    await send(w, { to, text: 'SUCCESS', html: '<p>Step 3: <b>FAIL</b></p>' });
    await send(w, { to, text: 'Step 3: FAIL', html: '<p>SUCCESS</p>' });
    await send(w, { to, text: 'done', html: '<p>SUC<span>CESS</span></p>' });
    expect(await kindsOf(w, code)).toEqual(['fail', 'fail', 'success']);
  });

  it('searches subject and body when both filters are on', async () => {
    const code = await newCheck(w, { filter_subject: true, filter_body: true, success_kw: 'OK', failure_kw: 'ERROR' });
    const to = `${code}@${DOMAIN}`;
    await send(w, { to, subject: 'Backup OK', text: 'details' });
    await send(w, { to, subject: 'Backup', text: 'ERROR' });
    await send(w, { to, subject: 'Backup', text: 'details' });
    expect(await kindsOf(w, code)).toEqual(['success', 'fail', 'ign']);
  });

  it('honours the deprecated subject and subject_fail fields as subject keywords', async () => {
    const code = await newCheck(w, { subject: 'OK', subject_fail: 'ERROR' });
    const check = await w.api('GET', `/api/v3/checks/${code}`);
    expect(check.json).toMatchObject({ filter_subject: true, success_kw: 'OK', failure_kw: 'ERROR' });
    const to = `${code}@${DOMAIN}`;
    await send(w, { to, subject: 'Backup OK' });
    expect((await checkRow(w, code)).status).toBe('up');
    await send(w, { to, subject: 'Backup ERROR' });
    expect((await checkRow(w, code)).status).toBe('down');
    await send(w, { to, subject: 'Backup', text: 'OK' });
    expect(await kindsOf(w, code)).toEqual(['success', 'fail', 'ign']);
    expect((await checkRow(w, code)).status).toBe('down');
  });

  it('ignores every email to a paused check with manual_resume', async () => {
    const code = await newCheck(w, { manual_resume: true });
    expect((await w.api('POST', `/api/v3/checks/${code}/pause`)).status).toBe(200);
    await send(w, { to: `${code}@${DOMAIN}` });
    expect(await kindsOf(w, code)).toEqual(['ign']);
    expect((await checkRow(w, code)).status).toBe('paused');
  });
});

describe('email pings: delivery', () => {
  it('answers DATA with 250 only after the ping is committed', async () => {
    const code = await newCheck(w);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let submitted!: () => void;
    const reached = new Promise<void>((resolve) => (submitted = resolve));
    const hold = interceptSubmit(w, async (real, t, r) => {
      submitted();
      await gate;
      return real(t, r);
    });
    try {
      let answered = false;
      const sending = send(w, { to: `${code}@${DOMAIN}` }).then((info) => ((answered = true), info));
      await reached;
      // The message is in, the ping is not committed: no answer yet.
      await new Promise((r) => setTimeout(r, 50));
      expect(answered).toBe(false);
      expect(await kindsOf(w, code)).toEqual([]);
      release();
      expect((await sending).response).toMatch(/^250 /);
    } finally {
      hold.restore();
    }
    // No waiting: once the sender has its 250, the ping is there.
    expect(await kindsOf(w, code)).toEqual(['success']);
  });

  it('has every ping committed when concurrent senders get their 250s', async () => {
    const codes = await Promise.all([1, 2, 3, 4, 5].map(() => newCheck(w)));
    await Promise.all(codes.map((code) => send(w, { to: `${code}@${DOMAIN}` })));
    for (const code of codes) expect(await kindsOf(w, code)).toEqual(['success']);
  });

  it('answers 451 when the ping cannot be recorded, so the sender retries', async () => {
    const code = await newCheck(w);
    const acceptedBefore = await inbound(w, 'accepted');
    const broken = interceptSubmit(w, async () => {
      throw new Error('disk I/O error');
    });
    try {
      const err = await refusal(w, { to: `${code}@${DOMAIN}` });
      expect(err.responseCode).toBe(451);
      expect(err.response).toBe('451 4.3.0 Temporary failure, try again');
    } finally {
      broken.restore();
    }
    expect(await kindsOf(w, code)).toEqual([]);
    expect((await inbound(w, 'accepted')) - acceptedBefore).toBe(0);
  });

  it('accepts the message when a recipient check is deleted between RCPT and DATA, pinging the others', async () => {
    const gone = await newCheck(w);
    const kept = await newCheck(w);
    const goneId = (await checkRow(w, gone)).id;
    const race = interceptSubmit(w, async (real, t, r) => {
      if ('checkId' in t && t.checkId === goneId) await w.app.db.check.delete({ where: { id: goneId } });
      return real(t, r);
    });
    try {
      const info = await send(w, { to: [`${gone}@${DOMAIN}`, `${kept}@${DOMAIN}`] });
      expect(info.response).toMatch(/^250 /);
    } finally {
      race.restore();
    }
    expect(await w.app.db.check.count({ where: { code: gone } })).toBe(0);
    expect(await kindsOf(w, kept)).toEqual(['success']);
  });

  it('refuses a message over 10 MB with 552 and records nothing', async () => {
    const code = await newCheck(w);
    const refusedBefore = await inbound(w, 'refused');
    const line = 'x'.repeat(76);
    const lines = [`From: ${SENDER}`, `To: ${code}@${DOMAIN}`, 'Subject: huge', ''];
    for (let size = 0; size < 10.5 * 1024 * 1024; size += line.length + 2) lines.push(line);
    const err = await refusal(w, { envelope: { from: SENDER, to: [`${code}@${DOMAIN}`] }, raw: rawMessage(lines) });
    expect(err.responseCode).toBe(552);
    expect(err.response).toBe('552 5.3.4 Message too big');
    expect(await kindsOf(w, code)).toEqual([]);
    expect((await checkRow(w, code)).nPings).toBe(0);
    expect((await inbound(w, 'refused')) - refusedBefore).toBe(1);
    // The listener still works afterwards.
    await send(w, { to: `${code}@${DOMAIN}` });
    expect(await kindsOf(w, code)).toEqual(['success']);
  });

  it('refuses at MAIL FROM a message declared (SIZE=) over 10 MB', async () => {
    const smtp = await dialog(w.app.smtpd!.port);
    expect(await smtp.command('EHLO client.example.net')).toMatch(/^250[- ]SIZE 10485760$/m);
    expect(await smtp.command(`MAIL FROM:<${SENDER}> SIZE=${11 * 1024 * 1024}`)).toMatch(/^552 /);
    await smtp.quit();
  });
});

describe('email pings: body limit', () => {
  const small = useWorld({ SMTPD_PORT: '0', PING_EMAIL_DOMAIN: DOMAIN, PING_BODY_LIMIT: '100' });

  it('keeps the first PING_BODY_LIMIT bytes of the message as the body', async () => {
    const code = await newCheck(small, { filter_body: true, failure_kw: 'FAIL' });
    const raw = rawMessage([`From: ${SENDER}`, `To: ${code}@${DOMAIN}`, 'Subject: long', '', 'ok '.repeat(100), 'FAIL at the end']);
    expect(raw.length).toBeGreaterThan(300);
    await send(small, { envelope: { from: SENDER, to: [`${code}@${DOMAIN}`] }, raw });
    const [ping] = await pingsOf(small, code);
    expect(Buffer.from(ping!.body!).toString('utf8')).toBe(raw.slice(0, 100));
    // Classification reads the whole message, not the cut body.
    expect(ping!.kind).toBe('fail');
    const body = await fetch(`${small.url}/api/v3/checks/${code}/pings/1/body`, { headers: { 'X-Api-Key': small.alice.api_key } });
    expect(await body.text()).toBe(raw.slice(0, 100));
  });
});

describe('email pings: shutdown', () => {
  it('stops at once with an idle client connected, answering it 421', async () => {
    const world = await createWorld({ SMTPD_PORT: '0', PING_EMAIL_DOMAIN: DOMAIN });
    const smtp = await dialog(world.app.smtpd!.port);
    expect(await smtp.command('EHLO client.example.net')).toMatch(/^250/);
    const started = Date.now();
    await world.stop();
    // smtp-server alone would wait 30 s for the client to leave.
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await smtp.reply()).toMatch(/^421 /);
    await smtp.closed;
  });

  it('answers a message being received before hanging up', async () => {
    const world = await createWorld({ SMTPD_PORT: '0', PING_EMAIL_DOMAIN: DOMAIN });
    const code = await newCheck(world);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let submitted!: () => void;
    const reached = new Promise<void>((resolve) => (submitted = resolve));
    interceptSubmit(world, async (real, t, r) => {
      submitted();
      await gate;
      return real(t, r);
    });
    const smtp = await dialog(world.app.smtpd!.port);
    await smtp.command('EHLO client.example.net');
    await smtp.command(`MAIL FROM:<${SENDER}>`);
    await smtp.command(`RCPT TO:<${code}@${DOMAIN}>`);
    await smtp.command('DATA');
    const answer = smtp.command('Subject: last one\r\n\r\nhello\r\n.');
    await reached;
    const stopping = world.stop();
    release();
    expect(await answer).toMatch(/^250 /);
    expect(await smtp.reply()).toMatch(/^421 /);
    await stopping;
  });
});

describe('Check.pingEmail (GraphQL)', () => {
  it('is <uuid>@PING_EMAIL_DOMAIN for a read-write key and null for a read-only one', async () => {
    const code = await newCheck(w);
    const rw = await gql(w, 'query($id: ID) { check(id: $id) { uuid pingEmail } }', { id: code });
    expect(rw.errors).toBeUndefined();
    expect(rw.data.check).toEqual({ uuid: code, pingEmail: `${code}@${DOMAIN}` });

    const ro = w.alice.api_key_readonly;
    const byId = await gql(w, 'query($id: ID) { check(id: $id) { uuid uniqueKey pingEmail } }', { id: code }, ro);
    expect(byId.errors).toBeUndefined();
    expect(byId.data.check).toMatchObject({ uuid: null, pingEmail: null });
    const byKey = await gql(w, 'query($k: String) { check(uniqueKey: $k) { name pingEmail } }', { k: byId.data.check.uniqueKey }, ro);
    expect(byKey.data.check).toEqual({ name: 'mailed', pingEmail: null });
  });

  it('is an address mail to which really pings the check', async () => {
    const code = await newCheck(w);
    const { data } = await gql(w, 'query($id: ID) { check(id: $id) { pingEmail } }', { id: code });
    await send(w, { to: data.check.pingEmail });
    expect(await kindsOf(w, code)).toEqual(['success']);
  });

  it('is null when the SMTP listener is off', async () => {
    const off = await createWorld({ PING_EMAIL_DOMAIN: DOMAIN });
    try {
      expect(off.app.smtpd).toBeNull();
      const code = await newCheck(off);
      const r = await gql(off, 'query($id: ID) { check(id: $id) { uuid pingEmail } }', { id: code });
      expect(r.data.check).toEqual({ uuid: code, pingEmail: null });
    } finally {
      await off.stop();
    }
  });
});

describe('/metrics', () => {
  const fresh = useWorld({ SMTPD_PORT: '0', PING_EMAIL_DOMAIN: DOMAIN });

  it('counts accepted messages and refused recipients and messages', async () => {
    expect(await inbound(fresh, 'accepted')).toBe(0);
    expect(await inbound(fresh, 'refused')).toBe(0);
    const code = await newCheck(fresh);
    await send(fresh, { to: `${code}@${DOMAIN}` });
    await send(fresh, { to: [`${code}@${DOMAIN}`, `${code}@example.org`] });
    await refusal(fresh, { to: `nobody@${DOMAIN}` });
    await refusal(fresh, { to: `00000000-0000-4000-8000-000000000000@${DOMAIN}` });
    const text = await (await fetch(`${fresh.url}/metrics`)).text();
    expect(text).toContain('gateway_inbound_emails_total{outcome="accepted"} 2');
    expect(text).toContain('gateway_inbound_emails_total{outcome="refused"} 3');
    // Emails pinged through the ordinary ingest, so they count as ingested pings too.
    expect(await metric(fresh, 'gateway_pings_ingested_total', { kind: 'success' })).toBe(2);
    // The addresses are not metric labels.
    expect(text).not.toContain(code);
  });
});
