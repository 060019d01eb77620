// Whether a failure is PostgreSQL refusing text it cannot store: NUL (SQLSTATE 22021,
// character_not_in_repertoire: "invalid byte sequence for encoding UTF8: 0x00"; a JavaScript
// string sent as UTF-8 has no other invalid byte). The domain refuses such values before any
// query (shared/stored-text.ts); this is the net under that rule: a path that still lets one
// through answers 400, the client's fault, not a 500. The statement failed, so nothing it would
// have written was stored. (22P05, a character the database's encoding lacks, is left alone: that
// is a database created in another encoding, the operator's to fix, not the client's fault.)
import { driverErrorCode } from './driver-error.ts';

const NUL_REFUSED_STATE = '22021';

export function isTextTheDatabaseRefused(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = driverErrorCode(e);
    if (code === NUL_REFUSED_STATE) return true;
  }
  return false;
}

export const REFUSED_TEXT_MESSAGE = 'text must not contain NUL characters';
