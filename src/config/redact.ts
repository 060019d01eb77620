// Settings are shown (gateway config check, configuration errors) with their secrets hidden:
// a variable named like a secret shows ***, a URL shows its password as *** (redactUrl).
import { redactUrl } from '../shared/redact-url.ts';

/** Words that make a variable a secret, as whole parts of its name (RATE_LIMIT_MAX_KEYS is not one). */
const SECRET_WORDS = new Set(['PASSWORD', 'PASSWD', 'PASS', 'SECRET', 'TOKEN', 'KEY', 'AUTH', 'CREDENTIALS']);

export const isSecretName = (name: string) => name.toUpperCase().split(/[_-]/).some((w) => SECRET_WORDS.has(w));

/** The value as it may be printed or logged. */
export function redactValue(name: string, value: string): string {
  if (value === '') return value;
  if (isSecretName(name)) return '***';
  if (/^[a-z][a-z\d+.-]*:\/\//i.test(value)) return redactUrl(value);
  return value;
}
