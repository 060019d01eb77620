// Healthchecks' FlipsFiltersForm: `start` and `end` are UNIX timestamps parsed with Python's
// int(), `seconds` is a Django IntegerField. Anything else is a 400 (empty body), so clients
// written against Healthchecks get the same answers for odd input.
import { validationError } from '../../shared/errors.ts';

const MAX_TIMESTAMP = 10_000_000_000;
const MAX_SECONDS = 31_536_000;

// int() skips ASCII whitespace, and non-ASCII characters for which str.isspace() is true.
const INT_SPACE = '\\t\\n\\v\\f\\r \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const INT_PATTERN = new RegExp(`^[${INT_SPACE}]*([+-]?)(\\d+(?:_\\d+)*)[${INT_SPACE}]*$`);
// Django's IntegerField drops a trailing ".000" first; Python's re `\s` adds \x1c-\x1f.
const TRAILING_DECIMAL = new RegExp(`\\.0*[${INT_SPACE}\\x1c-\\x1f]*$`);

const ND = /\p{Nd}/u;

/** int() reads any Unicode decimal digit. Nd digits come in runs of whole 0–9 blocks. */
function asciiDigit(ch: string): string {
  const cp = ch.codePointAt(0)!;
  let start = cp;
  while (ND.test(String.fromCodePoint(start - 1))) start--;
  return String((cp - start) % 10);
}

/** Python int(value): surrounding whitespace, one sign, digits with single '_' separators. */
function pythonInt(raw: string): number | null {
  const m = raw.replace(/(?![0-9])\p{Nd}/gu, asciiDigit).match(INT_PATTERN);
  if (!m) return null;
  const n = Number(m[2]!.replaceAll('_', ''));
  return m[1] === '-' && n !== 0 ? -n : n;
}

export interface FlipsFilter {
  seconds?: number;
  start?: number;
  end?: number;
}

const invalid = () => validationError('invalid flips query');

export function parseFlipsQuery(query: { seconds?: string; start?: string; end?: string }): FlipsFilter {
  const out: FlipsFilter = {};
  for (const field of ['start', 'end'] as const) {
    const raw = query[field];
    if (raw === undefined) continue;
    // Present but empty is still int('') → 400: TimestampField only skips a missing value.
    const n = pythonInt(raw);
    if (n === null || n < 0 || n > MAX_TIMESTAMP) throw invalid();
    out[field] = n;
  }
  // Only '' counts as blank for a Django field; whitespace alone fails int().
  if (query.seconds !== undefined && query.seconds !== '') {
    const n = pythonInt(query.seconds.replace(TRAILING_DECIMAL, ''));
    if (n === null || n < 0 || n > MAX_SECONDS) throw invalid();
    out.seconds = n;
  }
  return out;
}
