// The configured value of the kinds that post to a user's URL (webhooks, chat incoming hooks).
import { validationError } from '../../../../shared/errors.ts';

export function isHttpUrl(value: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** Healthchecks' message for a value that is not an http(s) URL. */
export function requireHttpUrl(value: string): void {
  if (!isHttpUrl(value)) throw validationError('value is not a valid http(s) URL');
}
