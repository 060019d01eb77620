// People for the second-factor tests: plain Person rows with a username, one per call.
import { randomBytes } from 'node:crypto';
import type { Db } from '../../../src/db/client.ts';

export async function newPerson(db: Db, name = 'ada') {
  return db.person.create({ data: { FirstName: name, LastName: 'Test', Username: `${name}-${randomBytes(4).toString('hex')}`, AccountLevel: 'User' } });
}
