// Matrix's channel value: the room as Healthchecks stores it, its id ("!abc:example.org"; rooms
// of version 12 have ids without a server part). Healthchecks' form also takes an alias
// ("#ops:example.org") and stores the id the join returns; we keep the alias and let the
// transport's join resolve it (validation does not reach the network).
import { validationError } from '../../../../shared/errors.ts';

const ROOM_ID = /^![^\s:]+(?::\S+)?$/;
const ALIAS = /^#[^\s:]+:\S+$/;

export function validateMatrixRoom(value: string): void {
  // Healthchecks' form field: CharField(max_length=100).
  if (value.length > 100) throw validationError(`Ensure this value has at most 100 characters (it has ${value.length}).`);
  if (!ROOM_ID.test(value) && !ALIAS.test(value)) throw validationError('value must be a Matrix room id (!abc123:example.org) or room alias (#ops:example.org)');
}
