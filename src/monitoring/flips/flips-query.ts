// Healthchecks' FlipsFiltersForm: start and end are UNIX timestamps parsed like Python's int(),
// seconds is a Django IntegerField. Anything else is a 400.
import { validationError } from '../../shared/errors.ts';

const MAX_TIMESTAMP = 10_000_000_000;
const MAX_SECONDS = 31_536_000;

/** Python int(): optional surrounding whitespace, a sign, digits with single '_' separators. */
function pythonInt(raw: string): number | null {
  const m = raw.trim().match(/^([+-]?)(\d+(?:_\d+)*)$/);
  if (!m) return null;
  const n = Number(m[2]!.replace(/_/g, ''));
  return m[1] === '-' ? -n : n;
}

export interface FlipsFilter {
  seconds?: number;
  start?: number;
  end?: number;
}

export function parseFlipsQuery(query: { seconds?: string; start?: string; end?: string }): FlipsFilter {
  const out: FlipsFilter = {};
  for (const field of ['start', 'end'] as const) {
    const raw = query[field];
    if (raw === undefined) continue;
    const n = pythonInt(raw);
    if (n === null || n < 0 || n > MAX_TIMESTAMP) throw validationError('invalid flips query');
    out[field] = n;
  }
  if (query.seconds !== undefined && query.seconds.trim() !== '') {
    const raw = query.seconds.trim();
    const n = /^[+-]?\d+$/.test(raw) ? Number(raw) : null;
    if (n === null || n < 0 || n > MAX_SECONDS) throw validationError('invalid flips query');
    out.seconds = n;
  }
  return out;
}
