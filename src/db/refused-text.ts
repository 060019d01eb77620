// Whether a failure is PostgreSQL refusing text it cannot store: NUL in text (SQLSTATE 22021,
// character_not_in_repertoire) or a \u0000 escape in JSON (22P05, untranslatable_character).
// The domain refuses such values before any query (shared/stored-text.ts); this is the net under
// that rule: a path that still lets one through answers 400, the client's fault, not a 500. The
// statement failed, so nothing it would have written was stored.
import { driverErrorCode } from './driver-error.ts';

const REFUSED_TEXT_STATES = new Set(['22021', '22P05']);

export function isTextTheDatabaseRefused(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = driverErrorCode(e);
    if (code && REFUSED_TEXT_STATES.has(code)) return true;
  }
  return false;
}

export const REFUSED_TEXT_MESSAGE = 'text must not contain NUL characters';
