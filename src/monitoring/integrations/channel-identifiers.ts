// Healthchecks' `channels` parameter: "*" (all), "" (none) or a comma-separated list of
// channel UUIDs or names. Tokens are not trimmed and names match exactly (case and
// whitespace included), as in Healthchecks, so scripts get the same answers.
import { validationError } from '../../shared/errors.ts';

/** The codes of the channels `value` names, deduplicated, in order of first appearance. */
export function resolveChannelIdentifiers(value: string, channels: Array<{ code: string; name: string }>): string[] {
  if (value === '*') return channels.map((c) => c.code);
  if (value === '') return [];
  const codes = new Set<string>();
  for (const token of value.split(',')) {
    if (token === '') throw validationError('empty channel identifier');
    // A name may equal another channel's UUID: that too is ambiguous.
    const matches = channels.filter((c) => c.code === token || c.name === token);
    if (matches.length === 0) throw validationError(`invalid channel identifier: ${token}`);
    if (matches.length > 1) throw validationError(`non-unique channel identifier: ${token}`);
    codes.add(matches[0]!.code);
  }
  return [...codes];
}
