// `manage.py dumpdata` JSON: [{"model": "api.check", "pk": 1, "fields": {…}}, …], whatever
// database the instance ran on. Users may be named by id or, with --natural-foreign, by
// ["username"] (and without a pk with --natural-primary); many-to-many fields are lists of ids.
import { emptyInstance, SourceError, type HcInstance } from './model.ts';
import * as rows from './rows.ts';

interface DumpObject {
  model: string;
  pk?: unknown;
  fields: rows.Fields;
}

const USER_FIELDS: Record<string, string> = {
  'accounts.profile': 'user',
  'accounts.project': 'owner',
  'accounts.member': 'user',
  'accounts.credential': 'user',
};

/** Reads a dumpdata document (the file's text). */
export function readDumpdata(json: string): HcInstance {
  let doc: unknown;
  try {
    doc = JSON.parse(json);
  } catch (err) {
    throw new SourceError(`not a dumpdata file: ${(err as Error).message}`);
  }
  if (!Array.isArray(doc) || doc.some((o) => typeof o !== 'object' || o === null || typeof o.model !== 'string' || typeof o.fields !== 'object')) {
    throw new SourceError('not a dumpdata file: expected a list of {"model", "pk", "fields"} objects (run `manage.py dumpdata` with its default JSON format)');
  }
  const objects = doc as DumpObject[];
  const usernames = new Map<string, string>();
  for (const o of objects) if (o.model === 'auth.user' && o.pk !== undefined) usernames.set(String(o.pk), String(o.fields.username));
  // A user reference: an id, or a natural key ["username"].
  const userOf = (value: unknown, at: string): string => {
    if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
    const name = usernames.get(String(value));
    if (name === undefined) throw new SourceError(`${at}: user ${JSON.stringify(value)} is not in the file (dump auth.user too)`);
    return name;
  };
  const out = emptyInstance();
  for (const o of objects) {
    const userField = Object.hasOwn(USER_FIELDS, o.model) ? USER_FIELDS[o.model] : undefined;
    const fields = userField ? { ...o.fields, [userField]: userOf(o.fields[userField], `${o.model} #${String(o.pk)}`) } : o.fields;
    switch (o.model) {
      case 'auth.user':
        out.users.push(rows.user(fields));
        break;
      case 'accounts.profile':
        out.profiles.push(rows.profile(fields, o.pk, 'text'));
        break;
      case 'accounts.project':
        out.projects.push(rows.project(fields, o.pk));
        break;
      case 'accounts.member':
        out.members.push(rows.member(fields, o.pk));
        break;
      case 'accounts.credential':
        out.credentials.push(rows.credential(fields, o.pk));
        break;
      case 'api.check':
        out.checks.push(rows.check(fields, o.pk, 'text'));
        break;
      case 'api.channel':
        out.channels.push(rows.channel(fields, o.pk, Array.isArray(fields.checks) ? (fields.checks as number[]) : []));
        break;
      case 'api.ping':
        out.pings.push(rows.ping(fields, o.pk));
        break;
      case 'api.flip':
        out.flips.push(rows.flip(fields, o.pk));
        break;
      case 'api.notification':
        out.notifications.push(rows.notification(fields, o.pk));
        break;
      default:
        out.ignored[o.model] = (out.ignored[o.model] ?? 0) + 1;
    }
  }
  return out;
}
