// Reading a Slate-style request: form fields (Slate's way) or a JSON body, merged over the
// query string like PHP's $_REQUEST; the session token from `Authorization: Token <token>`.
import type { IncomingMessage } from 'node:http';
import { readBody } from '../../src/http/respond.ts';
import { validationError } from '../../src/shared/errors.ts';

const MAX_BODY = 1024 * 1024;

export async function readFields(req: IncomingMessage, query: URLSearchParams): Promise<Record<string, unknown>> {
  const fields: Record<string, unknown> = Object.fromEntries(query);
  if (req.method !== 'POST') return fields;
  const raw = await readBody(req, MAX_BODY);
  if (!raw.length) return fields;
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  if (type.startsWith('application/json')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw.toString('utf8'));
    } catch {
      throw validationError('Request body is not valid JSON');
    }
    if (typeof parsed !== 'object' || parsed === null) throw validationError('Request body must be a JSON object');
    return { ...fields, ...(parsed as Record<string, unknown>) };
  }
  // application/x-www-form-urlencoded (and bodies sent without a type, as curl -d does).
  return { ...fields, ...Object.fromEntries(new URLSearchParams(raw.toString('utf8'))) };
}

export function sessionToken(req: IncomingMessage, query: URLSearchParams): string | null {
  const auth = req.headers.authorization;
  const m = auth ? /^Token\s+(\S+)$/i.exec(auth) : null;
  return m ? m[1]! : query.get('_session');
}
