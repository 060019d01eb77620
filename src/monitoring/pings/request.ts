// A ping as the transports hand it to the domain, and the checks every ping must pass before
// it is queued (they need no database).
import { validationError } from '../../shared/errors.ts';
import type { Check } from '../../generated/prisma/client.ts';
import type { PingKind } from './classify.ts';

export type PingSignal = 'success' | 'start' | 'fail' | 'log';

export interface PingRequest {
  signal: PingSignal;
  /** Exit status from `/ping/<uuid>/<n>`; non-zero means failure. */
  exitStatus?: number;
  /** The `rid` query parameter as sent (validated here); undefined when absent. */
  rid?: string;
  method: string;
  scheme: string;
  remoteAddr: string | null;
  ua: string;
  body: Buffer;
  /**
   * Decides the ping's kind from the check as stored when the ping is written (email pings:
   * the check's keyword filters); overrides the signal, the method rule and HTTP body filters.
   */
  classify?: (check: Check) => PingKind;
}

const RID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function validatePing(req: PingRequest) {
  if (req.exitStatus !== undefined && req.exitStatus > 255) throw validationError('invalid url format');
  if (req.rid !== undefined && !RID.test(req.rid)) throw validationError('invalid uuid format');
}
