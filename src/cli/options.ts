// Option parsers: commander reports their InvalidArgumentError with the option's name, as a
// usage error (exit status 2). Not null for "off": commander turns a parser's null into ''.
import { InvalidArgumentError } from 'commander';

export const integer = (value: string) => {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a whole number');
  return Number(value);
};

export const periodOrOff = (value: string): number | 'off' => {
  if (value === 'off') return 'off';
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a whole number of seconds, or "off"');
  return Number(value);
};

/** A repeatable option's values, in order. */
export const collect = (value: string, previous: string[] = []) => [...previous, value];
