// Apprise's channel value, as Healthchecks stores it: one or more Apprise URLs
// ("mailto://user:pass@example.org", "json://example.org/hook"), separated by spaces or commas
// as Apprise's add() takes them. Healthchecks checks only the length; the scheme check here
// turns a typo into a refusal instead of an alert that fails at every attempt.
import { validationError } from '../../../../shared/errors.ts';

const APPRISE_URL = /^[a-z][a-z0-9+.-]*:\/\/\S+$/i;

export function validateAppriseUrls(value: string): void {
  // Healthchecks' AddAppriseForm: CharField(max_length=512).
  if (value.length > 512) throw validationError(`Ensure this value has at most 512 characters (it has ${value.length}).`);
  const urls = value.split(/[\s,]+/).filter(Boolean);
  if (urls.length === 0 || !urls.every((u) => APPRISE_URL.test(u))) throw validationError('value must be one or more Apprise URLs, such as json://example.org/hook or mailto://user:pass@example.org');
}
