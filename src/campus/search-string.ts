// Slate's search syntax for browse `q` (Emergence\SearchStringParser): terms separated by
// spaces, each optionally `qualifier:term`, quotes group words ("World History") and a
// backslash before a closing quote keeps it. Pure; bounded before anything is looked up.
import { InvalidRequestError, SEARCH_MAX_CHARS, SEARCH_MAX_WORDS } from './limits.ts';

export interface SearchTerm {
  /** Lower-cased, as Slate compares it; null for a bare term (Slate's `any`). */
  qualifier: string | null;
  term: string;
}

// Slate's quote characters. PHP compares bytes, so its curly quotes also split other UTF-8
// characters; we compare characters.
const QUOTES = new Set([...'\'"‘’“”']);
// PHP's ctype_space, plus NUL: SQLite ends a LIKE pattern at it and FTS5 refuses it in a phrase.
const isSpace = (c: string) => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\v' || c === '\f' || c === '\0';

/** The parser's scan, character by character (code points, so a surrogate pair stays whole). */
function scan(text: string): Array<{ qualifier: string; term: string }> {
  const chars = [...text];
  const out: Array<{ qualifier: string; term: string }> = [];
  let i = 0;
  const read = (stopAtDelimiter: boolean) => {
    let s = '';
    let quote: string | null = null;
    while (i < chars.length) {
      const c = chars[i]!;
      if (!quote && QUOTES.has(c)) {
        quote = c;
        i++;
      } else if (c === quote) {
        // An escaped closing quote is kept as a quote (Slate replaces the backslash).
        if (s.endsWith('\\')) s = s.slice(0, -1) + c;
        else quote = null;
        i++;
      } else if (!quote && (isSpace(c) || (stopAtDelimiter && c === ':'))) {
        break;
      } else {
        s += c;
        i++;
      }
    }
    return s;
  };
  while (i < chars.length) {
    const c = chars[i]!;
    if (isSpace(c)) {
      i++;
      continue;
    }
    let qualifier = '';
    if (c === ':') {
      i++;
    } else {
      qualifier = read(true);
      if (i >= chars.length || chars[i] !== ':') {
        if (qualifier) out.push({ qualifier: '', term: qualifier });
        continue;
      }
      i++;
    }
    const term = read(false);
    if (term || qualifier) out.push({ qualifier, term });
  }
  return out;
}

/**
 * The terms of a search, bounded: at most SEARCH_MAX_CHARS characters and SEARCH_MAX_WORDS
 * distinct terms (each is a phrase of the index query). A qualifier without a term is dropped,
 * as Slate drops it.
 */
export function parseSearch(q: string): SearchTerm[] {
  const text = q.trim();
  if (text.length > SEARCH_MAX_CHARS) throw new InvalidRequestError(`Search text is too long: at most ${SEARCH_MAX_CHARS} characters`);
  const byKey = new Map<string, SearchTerm>();
  for (const { qualifier, term } of scan(text)) {
    if (!term) continue;
    const q = qualifier ? qualifier.replace(/[A-Z]/g, (c) => c.toLowerCase()) : null;
    // Matching ignores case, so "Math math" is one term.
    const key = `${q ?? ''}:${term.replace(/[A-Z]/g, (c) => c.toLowerCase())}`;
    if (!byKey.has(key)) byKey.set(key, { qualifier: q, term });
  }
  if (byKey.size > SEARCH_MAX_WORDS) throw new InvalidRequestError(`Search has too many words: at most ${SEARCH_MAX_WORDS}`);
  return [...byKey.values()];
}
