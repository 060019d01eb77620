// Email pings, the pure parts: which kind a message is (Healthchecks' smtpd rules), what an HTML
// part reads as, and which mailbox a recipient address names.
import { describe, expect, it } from 'vitest';
import { classifyEmail, htmlAsText, type EmailFilter, type EmailText } from '../../../src/monitoring/email-pings/classify.ts';
import { parseRecipient } from '../../../src/monitoring/email-pings/mailbox.ts';

const filter = (over: Partial<EmailFilter> = {}): EmailFilter => ({
  filterSubject: false,
  filterBody: false,
  filterDefaultFail: false,
  startKw: '',
  successKw: '',
  failureKw: '',
  ...over,
});
const email = (over: Partial<EmailText> = {}): EmailText => ({ subject: '', plain: null, htmlText: null, ...over });

describe('classifyEmail', () => {
  it('calls every email a success when neither the subject nor the body is filtered', () => {
    const check = filter({ failureKw: 'FAIL', filterDefaultFail: true });
    expect(classifyEmail(check, email({ subject: 'Backup FAIL', plain: 'FAIL' }))).toBe('success');
    expect(classifyEmail(check, email())).toBe('success');
  });

  it('looks for failure keywords first, then success, then start', () => {
    const check = filter({ filterSubject: true, startKw: 'started', successKw: 'OK', failureKw: 'ERROR' });
    expect(classifyEmail(check, email({ subject: 'OK but ERROR, started' }))).toBe('fail');
    expect(classifyEmail(check, email({ subject: 'OK, started' }))).toBe('success');
    expect(classifyEmail(check, email({ subject: 'Backup started' }))).toBe('start');
  });

  it('ignores an email no keyword matches, or fails it with filter_default_fail', () => {
    const check = filter({ filterSubject: true, successKw: 'OK', failureKw: 'ERROR' });
    expect(classifyEmail(check, email({ subject: 'Weekly report' }))).toBe('ign');
    expect(classifyEmail({ ...check, filterDefaultFail: true }, email({ subject: 'Weekly report' }))).toBe('fail');
  });

  it('with a filter on and no keywords at all, ignores every email (or fails it by default)', () => {
    expect(classifyEmail(filter({ filterSubject: true }), email({ subject: 'anything' }))).toBe('ign');
    expect(classifyEmail(filter({ filterBody: true, filterDefaultFail: true }), email({ plain: 'anything' }))).toBe('fail');
  });

  it('matches comma-separated keywords, trimmed, as case-sensitive substrings', () => {
    const check = filter({ filterSubject: true, successKw: ' done ,  , completed  ', failureKw: 'Failed' });
    expect(classifyEmail(check, email({ subject: 'job completed at 10:00' }))).toBe('success');
    expect(classifyEmail(check, email({ subject: 'undone business' }))).toBe('success'); // a substring
    expect(classifyEmail(check, email({ subject: 'job DONE' }))).toBe('ign'); // case matters
    expect(classifyEmail(check, email({ subject: 'job failed' }))).toBe('ign');
    expect(classifyEmail(check, email({ subject: 'job Failed' }))).toBe('fail');
    // Empty keywords (between commas, or only spaces) match nothing, not everything.
    expect(classifyEmail(filter({ filterSubject: true, successKw: ' , ' }), email({ subject: 'x' }))).toBe('ign');
  });

  it('searches only the subject with filter_subject, not the body', () => {
    const check = filter({ filterSubject: true, failureKw: 'FAIL' });
    expect(classifyEmail(check, email({ subject: 'nightly', plain: 'FAIL', htmlText: 'FAIL' }))).toBe('ign');
    expect(classifyEmail(check, email({ subject: 'nightly FAIL' }))).toBe('fail');
  });

  it('searches the plain-text part and the HTML text with filter_body, not the subject', () => {
    const check = filter({ filterBody: true, successKw: 'SUCCESS', failureKw: 'FAIL' });
    expect(classifyEmail(check, email({ subject: 'FAIL', plain: 'all good' }))).toBe('ign');
    expect(classifyEmail(check, email({ plain: 'SUCCESS' }))).toBe('success');
    expect(classifyEmail(check, email({ htmlText: 'SUCCESS' }))).toBe('success');
    // Failure wins wherever it is: plain says success, HTML says failure.
    expect(classifyEmail(check, email({ plain: 'SUCCESS', htmlText: 'FAIL' }))).toBe('fail');
  });

  it('searches subject and body together when both filters are on, but never across them', () => {
    const check = filter({ filterSubject: true, filterBody: true, successKw: 'all good', failureKw: 'ERROR' });
    expect(classifyEmail(check, email({ subject: 'Backup', plain: 'ERROR: disk full' }))).toBe('fail');
    expect(classifyEmail(check, email({ subject: 'all good', plain: 'details' }))).toBe('success');
    // The parts are joined with a newline: "all" ending the subject and "good" opening the body
    // are not the keyword "all good".
    expect(classifyEmail(check, email({ subject: 'all', plain: 'good' }))).toBe('ign');
  });
});

describe('htmlAsText (Healthchecks html2text)', () => {
  it('joins text split by inline tags, so <b>FA</b>IL reads FAIL', () => {
    expect(htmlAsText('<b>FA</b>IL')).toBe('FAIL');
    expect(htmlAsText('<p>Backup <i>finished</i> OK</p>')).toBe('Backup finished OK');
  });

  it('keeps the case of headings and table headers (keywords are case-sensitive)', () => {
    expect(htmlAsText('<h1>Backup failed</h1>')).toBe('Backup failed');
    expect(htmlAsText('<table><tr><th>Status</th></tr><tr><td>ok</td></tr></table>')).toBe('Statusok');
  });

  it('leaves out URLs, image alt texts, scripts, styles and comments', () => {
    expect(htmlAsText('<a href="https://example.org/FAIL">details</a>')).toBe('details');
    expect(htmlAsText('<img alt="FAIL" src="fail.png">ok')).toBe('ok');
    expect(htmlAsText('<style>.FAIL{}</style><script>var FAIL</script><!-- FAIL -->ok')).toBe('ok');
  });

  it('joins text nodes as they are and makes every run of whitespace one space', () => {
    expect(htmlAsText('<p>Backup</p><p>done</p>')).toBe('Backupdone');
    expect(htmlAsText('<p>Backup</p>\n  <p>done</p>')).toBe('Backup done');
    expect(htmlAsText('a<br>b<hr>c')).toBe('abc');
    expect(htmlAsText('<pre>  a\n\n  b  </pre>')).toBe('a b');
    expect(htmlAsText('<ul><li>one</li> <li>two</li></ul>')).toBe('one two');
  });

  it('decodes entities and keeps the title', () => {
    expect(htmlAsText('Tom &amp; Jerry &eacute;t&eacute; &#x41;&nbsp;B')).toBe('Tom & Jerry été A B');
    expect(htmlAsText('<html><head><title>Job OK</title></head><body>report</body></html>')).toBe('Job OKreport');
  });

  it('survives hostile nesting instead of overflowing the stack', () => {
    // html-to-text's defaults overflow at a few thousand levels.
    const deep = '<b>'.repeat(10_000) + 'x' + '</b>'.repeat(10_000);
    expect(htmlAsText(`ok${deep}`)).toBe('ok');
  });
});

describe('parseRecipient', () => {
  const uuid = '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
  const key = 'abcdefghij0123456789klmnopqrstuv'; // 32 lower-case characters, as ours are

  it('reads <uuid>@domain as the check with that code', () => {
    expect(parseRecipient(`${uuid}@hc.example.org`, 'hc.example.org')).toEqual({ ok: true, mailbox: { code: uuid } });
  });

  it('accepts upper-case uuids and domains, and lower-cases the code', () => {
    expect(parseRecipient(`${uuid.toUpperCase()}@HC.Example.ORG`, 'hc.example.org')).toEqual({ ok: true, mailbox: { code: uuid } });
    expect(parseRecipient(`${uuid}@hc.example.org`, 'HC.example.org')).toEqual({ ok: true, mailbox: { code: uuid } });
  });

  it('reads <ping_key>+<slug>@domain, lower-casing both', () => {
    expect(parseRecipient(`${key}+nightly-backup_2@hc.example.org`, 'hc.example.org')).toEqual({ ok: true, mailbox: { pingKey: key, slug: 'nightly-backup_2' } });
    expect(parseRecipient(`${key.toUpperCase()}+Nightly@hc.example.org`, 'hc.example.org')).toEqual({ ok: true, mailbox: { pingKey: key, slug: 'nightly' } });
  });

  it('refuses another domain (or a sub-domain) as a domain problem', () => {
    for (const address of [`${uuid}@example.org`, `${uuid}@mail.hc.example.org`, `${uuid}@hc.example.org.evil.test`, `${uuid}@`]) {
      expect(parseRecipient(address, 'hc.example.org')).toEqual({ ok: false, reason: 'domain' });
    }
  });

  it('refuses a mailbox in neither form as a mailbox problem', () => {
    const bad = [
      'postmaster',
      'uuid',
      uuid.slice(0, -1), // one digit short
      `${uuid}x`,
      uuid.replace(/-/g, ''), // no dashes
      `${uuid.slice(0, -1)}g`, // not hex
      `${key}+`, // no slug
      `+slug`, // no key
      `${key.slice(0, 10)}+slug`, // key too short
      `${key}+slug+more`,
      `${key}+a.b`, // a dot is no slug character
      `hc_${key}+slug`,
    ];
    for (const local of bad) expect(parseRecipient(`${local}@hc.example.org`, 'hc.example.org'), local).toEqual({ ok: false, reason: 'mailbox' });
    expect(parseRecipient('@hc.example.org', 'hc.example.org')).toEqual({ ok: false, reason: 'mailbox' });
    expect(parseRecipient('no-at-sign', 'hc.example.org')).toEqual({ ok: false, reason: 'mailbox' });
  });
});
