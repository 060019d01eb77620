// Page arguments (`first`, `offset`) of every paginated field, checked before anything is read:
// Prisma takes a negative `take` as "count from the end", so `first: -1` used to return the
// last row. Out of range is a BAD_USER_INPUT error at the field, never a clamp.
import { validationError } from '../../shared/errors.ts';

/** Largest page of checks or campus records one field returns. */
export const MAX_PAGE = 1000;

/**
 * Largest campus `offset`. SQL's OFFSET reads and drops that many rows, so a deep offset costs
 * as much as reading them; a million is past any school's list (a large district has about
 * 100,000 people) and far below Int's 2^31.
 */
export const MAX_OFFSET = 1_000_000;

/** `value` when it is a whole number from 0 to `max`; undefined when not given. */
export function pageArgument(name: string, value: number | null | undefined, max: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 0 || value > max) throw validationError(`${name} must be between 0 and ${max}`);
  return value;
}
