// Healthchecks' body keyword classification (filter_http_body) and its keyword matcher.
export type PingKind = 'success' | 'start' | 'fail' | 'log' | 'ign';

/** Any comma-separated, trimmed, non-empty keyword found as a case-sensitive substring. */
export function matchKeywords(text: string, keywords: string): boolean {
  return keywords
    .split(',')
    .map((k) => k.trim())
    .some((k) => k !== '' && text.includes(k));
}

export interface KeywordFilter {
  filterHttpBody: boolean;
  filterDefaultFail: boolean;
  startKw: string;
  successKw: string;
  failureKw: string;
}

/** The body decides the kind (overriding the URL's), failure first, as Healthchecks does. */
export function classifyBody(body: string, check: KeywordFilter): PingKind {
  if (matchKeywords(body, check.failureKw)) return 'fail';
  if (matchKeywords(body, check.successKw)) return 'success';
  if (matchKeywords(body, check.startKw)) return 'start';
  return check.filterDefaultFail ? 'fail' : 'ign';
}
