// Slate's write-only pseudo-fields, applied after a record is saved: a person's `Email`,
// `Phone` and `Postal` (contact points that become the primary ones) and `groupIDs`
// (replaces memberships); a blog post's or page's `tags` (replaces its tags).
import type { Viewer } from './auth.ts';
import { handleFromText, handlesUnder, uniqueHandle } from './handle.ts';
import type { KindName, KindSpec } from './kinds.ts';
import { MAX_LIST_ITEMS, parseId } from './limits.ts';
import { setPersonGroups } from './relationships.ts';
import { applyContentWriteOnly, checkContentWriteOnly } from './content-items.ts';
import type { CampusDeps, CampusRecord } from './lookup.ts';
import type { FieldErrors, RecordInput } from './validate.ts';
import { holdsNul } from '../shared/stored-text.ts';
import { primaryPhotoError } from './media/service.ts';
import { emailTakenByOther, pointFromPersonField } from './contact-points.ts';

const CONTACTS = [
  { input: 'Email', primary: 'PrimaryEmailID', className: 'Emergence\\People\\ContactPoint\\Email' },
  { input: 'Phone', primary: 'PrimaryPhoneID', className: 'Emergence\\People\\ContactPoint\\Phone' },
  { input: 'Postal', primary: 'PrimaryPostalID', className: 'Emergence\\People\\ContactPoint\\Postal' },
] as const;
export const CONTACT_CLASSES = Object.fromEntries(CONTACTS.map((c) => [c.primary, c.className]));

/** Input keys each kind accepts besides its fields. */
export const WRITE_ONLY: Record<KindName, string[]> = {
  Person: ['Password', 'Email', 'Phone', 'Postal', 'groupIDs'],
  BlogPost: ['tags', 'items', 'contextMedia'],
  Page: ['tags', 'items', 'contextMedia'],
  Section: [],
  Course: [],
  Group: [],
  Location: [],
  Term: [],
  Department: [],
  Schedule: [],
};

/** A list given as an array of strings or numbers, or as a comma-separated string (null: empty); distinct items. */
const list = (raw: unknown) =>
  raw === null ? [] : [...new Set((Array.isArray(raw) ? raw.map(String) : String(raw).split(',')).map((s) => s.trim()).filter(Boolean))];

/** Why a list pseudo-field cannot be used as given, or null (items are titles or identifiers). */
function listError(raw: unknown, label: string): string | null {
  const scalar = (v: unknown) => typeof v === 'string' || typeof v === 'number';
  if (!(scalar(raw) || (Array.isArray(raw) && raw.every(scalar)))) return `${label} is invalid.`;
  const items = list(raw);
  if (items.length > MAX_LIST_ITEMS) return `${label} may list at most ${MAX_LIST_ITEMS} items.`;
  if (items.some((s) => s.length > 255 || holdsNul(s))) return `${label} is invalid.`;
  return null;
}

/** Validates pseudo-fields and direct Primary*ID links before anything is written. */
export async function checkWriteOnly(deps: CampusDeps, kind: KindSpec, input: RecordInput, data: RecordInput, existing: CampusRecord | null, errors: FieldErrors) {
  if (kind.model === 'content' && input.tags !== undefined && input.tags !== null) {
    const error = listError(input.tags, 'Tags');
    if (error) errors.tags = error;
  }
  // A post's body (content-items.ts): checked before anything is written, a 400 when refused.
  if (kind.model === 'content') await checkContentWriteOnly(deps, kind, input, existing);
  if (kind.name !== 'Person') return;
  for (const c of CONTACTS) {
    const value = input[c.input];
    if (value === undefined || value === null) continue;
    // Contact points are short strings; the length check also keeps the patterns below linear
    // in practice (the email pattern backtracks quadratically on long input).
    if (typeof value !== 'string' || holdsNul(value)) errors[c.input] = `${c.input} is invalid.`;
    else if (value.trim().length > 255) errors[c.input] = `${c.input} is too long.`;
  }
  if (typeof input.Email === 'string' && !errors.Email && input.Email.trim() && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(input.Email.trim())) errors.Email = 'Email is invalid.';
  if (typeof input.Phone === 'string' && !errors.Phone && input.Phone.trim() && !/^[+\d][\d\s().-]{4,}$/.test(input.Phone.trim())) errors.Phone = 'Phone is invalid.';
  // As a contact point made at /contact-points: an address another person's email point holds is refused.
  if (typeof input.Email === 'string' && !errors.Email && input.Email.trim() && (await emailTakenByOther(deps, existing?.ID ?? null, input.Email))) {
    errors.Email = 'Cannot create an email contact point that matches an existing email contact point';
  }
  for (const c of CONTACTS) {
    const id = data[c.primary];
    if (typeof id !== 'number') continue;
    const point = await deps.db.contactPoint.findUnique({ where: { ID: id } });
    const label = c.primary.replace(/ID$/, '');
    if (!point || point.Class !== c.className) errors[c.primary] = `${label.replace(/([a-z])([A-Z])/g, '$1 $2')} ${id} does not exist.`;
    else if (point.PersonID !== existing?.ID) errors[c.primary] = `${label} already belongs to another person`;
  }
  // A primary photo is one of the person's own photos (media/service.ts).
  const photoError = await primaryPhotoError(deps, data.PrimaryPhotoID, existing);
  if (photoError) errors.PrimaryPhotoID = photoError;
  if (input.groupIDs !== undefined && input.groupIDs !== null) {
    const error = listError(input.groupIDs, 'Group IDs');
    if (error) return void (errors.groupIDs = error);
    for (const ident of list(input.groupIDs)) {
      // An all-digit identifier is an ID; one past the column range names no group.
      const id = /^\d+$/.test(ident) ? parseId(ident) : undefined;
      const found = id === null ? null : await deps.db.group.findFirst({ where: id === undefined ? { Handle: ident } : { ID: id }, select: { ID: true } });
      if (!found) {
        errors.groupIDs = `Group ${ident} does not exist.`;
        break;
      }
    }
  }
}

/** Runs in the record's write transaction (service.ts), so a failure here undoes the record too. */
export async function applyWriteOnly(deps: CampusDeps, viewer: Viewer, kind: KindSpec, record: CampusRecord, input: RecordInput): Promise<CampusRecord> {
  if (kind.name === 'Person') {
    const primary: Record<string, number> = {};
    for (const c of CONTACTS) {
      const value = input[c.input];
      if (typeof value !== 'string' || !value.trim()) continue;
      primary[c.primary] = await pointFromPersonField(deps, record.ID, c.className, value);
    }
    if (input.groupIDs !== undefined) await setPersonGroups(deps, viewer, record.ID, list(input.groupIDs));
    if (Object.keys(primary).length) return (await deps.db.person.update({ where: { ID: record.ID }, data: primary })) as unknown as CampusRecord;
  }
  if (kind.model === 'content' && input.tags !== undefined) {
    const tagIds: number[] = [];
    for (const title of list(input.tags)) {
      const handle = handleFromText(title) || 'tag';
      const tag =
        (await deps.db.tag.findFirst({ where: { OR: [{ Handle: handle }, { Title: title }] } })) ??
        (await deps.db.tag.create({ data: { Title: title, Handle: await uniqueHandle(handle, async (base) => (await deps.db.tag.findMany({ where: handlesUnder(base), select: { Handle: true } })).map((t) => t.Handle)) } }));
      tagIds.push(tag.ID);
    }
    await deps.db.contentTag.deleteMany({ where: { ContentID: record.ID } });
    const links = [...new Set(tagIds)].map((TagID) => ({ ContentID: record.ID, TagID }));
    if (links.length) await deps.db.contentTag.createMany({ data: links });
  }
  if (kind.model === 'content') await applyContentWriteOnly(deps, viewer, record, input);
  return record;
}
