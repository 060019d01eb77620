// Healthchecks' `channels` parameter: "*" (all), "" (none) or a comma-separated list of
// channel UUIDs or names. Names match exactly (case and whitespace included).
import { validationError } from '../../shared/errors.ts';

export function resolveChannelIdentifiers(value: string, channels: Array<{ code: string; name: string }>): string[] {
  if (value === '*') return channels.map((c) => c.code);
  if (value === '') return [];
  const codes: string[] = [];
  for (const token of value.split(',')) {
    if (token === '') throw validationError('empty channel identifier');
    const matches = channels.filter((c) => c.code === token || c.name === token);
    if (matches.length === 0) throw validationError(`invalid channel identifier: ${token}`);
    if (matches.length > 1) throw validationError(`non-unique channel identifier: ${token}`);
    if (!codes.includes(matches[0]!.code)) codes.push(matches[0]!.code);
  }
  return codes;
}
