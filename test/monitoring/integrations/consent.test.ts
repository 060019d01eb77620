// An email channel to someone else's address needs its recipient's consent: created over
// GraphQL it waits, its recipient is mailed a link (to a real SMTP sink), alerts fail with
// "Email not verified" and reach nobody until the link is opened; every alert then carries an
// unsubscribe link (and RFC 8058 headers) that disables the channel and withdraws the consent.
// The creator's own address needs no link; the operator's channels (CLI, importer) neither.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, type World } from '../../helpers/world.ts';
import { startSmtpSink, type SmtpSink } from '../../helpers/receivers.ts';
import { gql } from '../../helpers/gql.ts';
import { browserClient } from '../../helpers/browser-client.ts';
import { createAccount } from '../../../src/identity/accounts.ts';
import { addMember } from '../../../src/identity/memberships.ts';

const CREATE = 'mutation($value: String!, $project: ID) { createChannel(kind: EMAIL, value: $value, project: $project) { uuid emailVerified } }';
const UPDATE = 'mutation($id: ID!, $value: String, $name: String) { updateChannel(id: $id, value: $value, name: $name) { emailVerified } }';
const TEST = 'mutation($id: ID!) { testChannel(id: $id) { ok state error } }';
const RESEND = 'mutation($id: ID!) { sendChannelVerification(id: $id) }';
const SIGN_IN = 'mutation($u: String!, $p: String!) { signIn(username: $u, password: $p) { username } }';

let w: World;
let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink();
  w = await createWorld({ EMAIL_HOST: '127.0.0.1', EMAIL_PORT: String(sink.port), EMAIL_USE_TLS: 'False', DEFAULT_FROM_EMAIL: 'alerts@gateway.test', SITE_NAME: 'Campus Checks' });
});
afterAll(async () => {
  await w?.stop();
  await sink?.close();
});

/** The first link to this server in a message's text, as a path on the test server. */
function linkIn(text: string, segment: 'verify' | 'unsub'): string {
  const match = new RegExp(`https?://[^\\s]+/integrations/[0-9a-f-]{36}/${segment}/[A-Za-z0-9_-]{32}/`).exec(text);
  expect(match, text).not.toBeNull();
  return new URL(match![0]).pathname;
}

const channelRow = (code: string) => w.app.db.channel.findUniqueOrThrow({ where: { code } });

describe('an email channel to another address', () => {
  let uuid: string;
  let verifyPath: string;

  it('waits for its recipient, who is mailed a link, and sends no alert meanwhile', async () => {
    const created = await gql(w, CREATE, { value: 'oncall@example.org' });
    expect(created.errors).toBeUndefined();
    expect(created.data.createChannel.emailVerified).toBe(false);
    uuid = created.data.createChannel.uuid;

    const [mail] = await sink.waitFor(1);
    expect(mail!.to).toEqual(['oncall@example.org']);
    expect(mail!.parsed.subject).toBe('Verify email address on Campus Checks');
    expect(mail!.parsed.text).toContain('The Campus Checks project "Alice" wants to send its alerts');
    verifyPath = linkIn(mail!.parsed.text ?? '', 'verify');

    const test = await gql(w, TEST, { id: uuid });
    expect(test.data.testChannel).toEqual({ ok: false, state: 'FAILED', error: 'Email not verified' });
    expect(sink.messages).toHaveLength(1);
  });

  it('is not asked again within five minutes, and is after', async () => {
    const again = await gql(w, RESEND, { id: uuid });
    expect(again.errors?.[0]?.message).toBe('the confirmation link was sent a moment ago: check the mailbox (and its spam folder) first');
    w.clock.advance(5 * 60_000 + 1000);
    expect((await gql(w, RESEND, { id: uuid })).data.sendChannelVerification).toBe(true);
    await sink.waitFor(2);
    // The same consent, the same link.
    expect(linkIn(sink.messages[1]!.parsed.text ?? '', 'verify')).toBe(verifyPath);
  });

  it('refuses a forged or stale link with a 404 and changes nothing', async () => {
    const forged = verifyPath.replace(/\/[A-Za-z0-9_-]{32}\/$/, `/${'A'.repeat(32)}/`);
    const res = await fetch(`${w.url}${forged}`);
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('This link is not valid');
    expect((await channelRow(uuid)).emailVerified).toBe(false);
    expect((await fetch(`${w.url}/integrations/not-a-uuid/verify/${'A'.repeat(32)}/`)).status).toBe(404);
  });

  it('sends once the recipient opens the link; the alert carries the unsubscribe link and one-click headers', async () => {
    const res = await fetch(`${w.url}${verifyPath}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const page = await res.text();
    expect(page).toContain('Address confirmed');
    expect(page).toContain('oncall@example.org');
    expect((await channelRow(uuid)).emailVerified).toBe(true);
    // Opened twice (a mail scanner first, then the person): still confirmed, one audit entry.
    expect((await fetch(`${w.url}${verifyPath}`)).status).toBe(200);
    expect(await w.app.db.auditEntry.count({ where: { action: 'channel.verified', targetId: uuid } })).toBe(1);

    expect((await gql(w, TEST, { id: uuid })).data.testChannel).toEqual({ ok: true, state: 'SENT', error: '' });
    const [, , alert] = await sink.waitFor(3);
    expect(alert!.parsed.subject).toBe('DOWN | TEST');
    const unsubscribe = linkIn(alert!.parsed.text ?? '', 'unsub');
    const headers = alert!.raw.split('\r\n\r\n')[0]!.replace(/\r\n[ \t]+/g, ' ');
    expect(headers).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    expect(headers).toMatch(new RegExp(`^List-Unsubscribe: <https?://[^>]+${unsubscribe}>$`, 'm'));
    expect(alert!.parsed.html).toContain(`${unsubscribe}">Unsubscribe</a>`);

    // Opening the link only asks: a scanner's GET unsubscribes nobody.
    const ask = await fetch(`${w.url}${unsubscribe}`);
    expect(ask.status).toBe(200);
    expect(await ask.text()).toContain('<form method="post"><button type="submit">Unsubscribe</button></form>');
    expect(await channelRow(uuid)).toMatchObject({ disabled: false, emailVerified: true });

    // The mail client's one-click POST: off, and the consent withdrawn.
    const done = await fetch(`${w.url}${unsubscribe}`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('no longer receives alerts');
    expect(await channelRow(uuid)).toMatchObject({ disabled: true, emailVerified: false });
    expect(await w.app.db.auditEntry.findFirst({ where: { action: 'channel.unsubscribed', targetId: uuid } })).toMatchObject({ actorLabel: 'Recipient (emailed link)' });

    // Switched back on by the project, it still sends nothing until the recipient says yes again.
    await gql(w, 'mutation($id: ID!) { updateChannel(id: $id, disabled: false) { disabled } }', { id: uuid });
    expect((await gql(w, TEST, { id: uuid })).data.testChannel).toMatchObject({ ok: false, error: 'Email not verified' });
    expect(sink.messages).toHaveLength(3);
  });

  it('asks again when the address changes (the old link stops working), and not when only the name does', async () => {
    const before = sink.messages.length;
    expect((await gql(w, UPDATE, { id: uuid, name: 'On call' })).data.updateChannel.emailVerified).toBe(false);
    expect(sink.messages).toHaveLength(before);

    w.clock.advance(5 * 60_000 + 1000);
    expect((await gql(w, UPDATE, { id: uuid, value: 'duty@example.org' })).data.updateChannel.emailVerified).toBe(false);
    const [mail] = (await sink.waitFor(before + 1)).slice(before);
    expect(mail!.to).toEqual(['duty@example.org']);
    expect((await fetch(`${w.url}${verifyPath}`)).status).toBe(404);
    expect((await fetch(`${w.url}${linkIn(mail!.parsed.text ?? '', 'verify')}`)).status).toBe(200);
    expect((await channelRow(uuid)).emailVerified).toBe(true);
  });
});

describe('addresses that need no link', () => {
  it('the signed-in creator’s own address (in any case) is confirmed at once, and nobody is mailed', async () => {
    const person = await createAccount(w.app.db, { username: 'dana', email: 'Dana@Example.org', password: 'correct horse battery', level: 'Staff' });
    await addMember({ db: w.app.db, events: w.app.deps.events, clock: w.clock }, w.alice.id, person.id, 'regular');
    const browser = browserClient(w);
    expect((await browser.gql(SIGN_IN, { u: 'dana', p: 'correct horse battery' })).errors).toBeUndefined();
    const before = sink.messages.length;
    const own = await browser.gql(CREATE, { value: 'dana@example.ORG', project: w.alice.id });
    expect(own.data.createChannel.emailVerified).toBe(true);
    const other = await browser.gql(CREATE, { value: 'someone@example.org', project: w.alice.id });
    expect(other.data.createChannel.emailVerified).toBe(false);
    await sink.waitFor(before + 1);
    expect(sink.messages.slice(before).map((m) => m.to)).toEqual([['someone@example.org']]);
  });

  it('the operator’s channels (CLI, importer) need none; other kinds have no recipient to ask', async () => {
    const made = await w.channel(w.alice, { kind: 'email', value: 'ops@example.org' });
    expect((await channelRow(made.code)).emailVerified).toBe(true);
    const hook = await gql(w, 'mutation { createChannel(kind: WEBHOOK, value: "https://hooks.example.org/x") { uuid emailVerified } }');
    expect(hook.data.createChannel.emailVerified).toBe(true);
    expect((await gql(w, RESEND, { id: hook.data.createChannel.uuid })).errors?.[0]?.message).toBe('only email channels ask their recipient to confirm');
  });
});
