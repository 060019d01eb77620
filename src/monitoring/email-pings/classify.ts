// Which ping an email is, as Healthchecks' smtpd decides (hc/api/management/commands/smtpd.py):
// with neither filter on, every email is a success; otherwise the subject and/or the body
// (plain-text part and the HTML part as text) are searched for failure keywords first, then
// success, then start; failing all, filter_default_fail makes it a failure, else it is ignored.
// The deprecated API fields `subject` / `subject_fail` are stored as success / failure keywords
// with filter_subject on, so they are honoured here too.
import { compile } from 'html-to-text';
import { matchKeywords, type PingKind } from '../pings/classify.ts';

export interface EmailFilter {
  filterSubject: boolean;
  filterBody: boolean;
  filterDefaultFail: boolean;
  startKw: string;
  successKw: string;
  failureKw: string;
}

export interface EmailText {
  subject: string;
  /** The plain-text part, if any. */
  plain: string | null;
  /** The HTML part turned to text, if any. */
  htmlText: string | null;
}

export function classifyEmail(check: EmailFilter, email: EmailText): PingKind {
  if (!check.filterSubject && !check.filterBody) return 'success';
  const chunks: string[] = [];
  if (check.filterSubject) chunks.push(email.subject);
  if (check.filterBody) {
    if (email.plain !== null) chunks.push(email.plain);
    if (email.htmlText !== null) chunks.push(email.htmlText);
  }
  const text = chunks.join('\n');
  if (check.failureKw && matchKeywords(text, check.failureKw)) return 'fail';
  if (check.successKw && matchKeywords(text, check.successKw)) return 'success';
  if (check.startKw && matchKeywords(text, check.startKw)) return 'start';
  return check.filterDefaultFail ? 'fail' : 'ign';
}

// Healthchecks' html2text (hc/lib/html.py) keeps only the text nodes, joined as they are, minus
// <script> and <style>, with runs of whitespace made one space. html-to-text's defaults differ in
// ways keywords notice (they are case-sensitive): headings and table headers in upper case, link
// and image URLs in brackets, image alt texts, line breaks around blocks. So every element is
// formatted inline, images are dropped, and <title> is kept (Healthchecks keeps it too).
const INLINE = ['a', 'article', 'aside', 'blockquote', 'br', 'div', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'table', 'ul', 'wbr'];
const convertHtml = compile({
  wordwrap: false,
  baseElements: { selectors: ['html'] },
  // html-to-text recurses per element: a hostile nesting depth would overflow the stack.
  limits: { maxDepth: 500, ellipsis: '' },
  selectors: [...INLINE.map((selector) => ({ selector, format: 'inline' })), { selector: 'img', format: 'skip' }],
});

/** The text of an HTML part as Healthchecks' keyword filters see it. */
export function htmlAsText(html: string): string {
  return convertHtml(html).split(/\s+/).filter(Boolean).join(' ');
}
