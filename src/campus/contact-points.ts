// A person's contact points (Slate's Emergence\People\ContactPoint\*, /contact-points): each
// class reads a string the way Slate's loadString does, stores Slate's serialization in Data,
// shows it back as Slate's toString (the `String` field) and validates with Slate's messages.
// The person's Primary{Email,Phone,Postal}ID follow AbstractPoint::save and ::destroy: a first
// point of a class becomes the primary one, deleting the primary one promotes the newest other.
import type { ContactPoint } from '../generated/prisma/client.ts';
import type { Viewer } from './viewer.ts';
import { requireLevel } from './access.ts';
import { readablePeople, requireContactsReadable } from './contact-access.ts';
import type { CampusDeps } from './lookup.ts';
import { parseId } from './limits.ts';
import { writeTransaction } from './transaction.ts';
import { peopleChanged } from './people-changed.ts';
import { notFound, RecordValidationError } from '../shared/errors.ts';
import { holdsNul } from '../shared/stored-text.ts';

const NS = 'Emergence\\People\\ContactPoint\\';
/** Longest string or serialization accepted (Slate's Data is a clob; a contact point is short). */
const MAX_DATA = 1000;

interface PointClass {
  short: 'Email' | 'Phone' | 'Postal' | 'Network' | 'Link';
  primary: 'PrimaryEmailID' | 'PrimaryPhoneID' | 'PrimaryPostalID' | null;
  defaultLabel: string;
  /** Slate's $sortWeight: /contact-points lists heavier classes first. */
  weight: number;
  /** loadString: what a person typed, as the stored serialization (Data). */
  fromString(s: string): string;
  /** toString: the serialization for people to read. */
  toString(data: string): string;
  /** validate: field → message, Slate's keys and texts. */
  validate(data: string): Record<string, string>;
}

const EMAIL = /^[_a-zA-Z0-9+-]+(\.[_+a-zA-Z0-9-]+)*$/;
const DOMAIN = /^[a-zA-Z0-9-]+(\.[a-zA-Z0-9-]+)*(\.[a-zA-Z]{2,})$/;
const FQDN = /^(?=.{4,255}$)((?!-)[a-zA-Z0-9-]{1,63}(?<!-)\.)+[a-zA-Z]{2,63}$/;

function postalParts(data: string): Record<string, string | null> | null {
  try {
    const parsed = JSON.parse(data) as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, string | null>) : null;
  } catch {
    return null;
  }
}

/** Postal::loadString: comma- or line-separated segments read into number, street, unit, city, state, postal. */
function parsePostal(input: string): string {
  const a: Record<string, string | null> = { name: null, number: null, street: null, unit: null, city: null, state: null, postal: null };
  for (const segment of input.trim().split(/\s*[,\r\n]+\s*/)) {
    let m: RegExpExecArray | null;
    if (!a.number && (m = /^(\d+)\s+(.*)/.exec(segment))) [a.number, a.street] = [m[1]!, m[2]!];
    else if ((m = /^([a-zA-Z]{2})\s+(\d{5}(-\d{4})?)$/.exec(segment))) [a.state, a.postal] = [m[1]!, m[2]!];
    else if (/^\d{5}(-\d{4})?$/.test(segment)) a.postal = segment;
    else if (/^[a-zA-Z]{2}$/.test(segment)) a.state = segment;
    else if (!a.unit && a.street && /^(apartment|apt\.?|suite|ste\.?|unit)\s+(.*)$/i.test(segment)) a.unit = segment;
    else if (!a.city && a.street) a.city = segment;
    else if (!a.unit && a.city && !a.state && !a.postal) [a.unit, a.city] = [a.city, segment];
    else if (!a.name) a.name = segment;
  }
  return JSON.stringify(a);
}

function postalString(data: string): string {
  const a = postalParts(data);
  // A postal point written through a person's `Postal` field before it was read as Slate reads it holds the text as typed.
  if (!a) return data;
  let s = `${a.number ?? ''} ${a.street ?? ''}`;
  if (a.name) s = `${a.name}\n${s}`;
  if (a.unit) s += `\n${a.unit}`;
  if (a.city || a.state || a.postal) {
    s += '\n';
    if (a.city) s += a.city + (a.state || a.postal ? ', ' : '');
    if (a.state) s += a.state + (a.postal ? ' ' : '');
    if (a.postal) s += a.postal;
  }
  return s;
}

export const POINT_CLASSES: Record<string, PointClass> = {
  [`${NS}Email`]: {
    short: 'Email',
    primary: 'PrimaryEmailID',
    defaultLabel: 'Email',
    weight: 1000,
    fromString: (s) => s,
    toString: (d) => d,
    validate(d): Record<string, string> {
      const [user, domain] = d.split(/@(.*)/s);
      if (domain === undefined) return { address: 'Email address invalid:Email address must be in format username@domain' };
      if (!EMAIL.test(user!)) return { address: 'Email address invalid:Username portion of address is invalid' };
      if (!DOMAIN.test(domain)) return { address: 'Email address invalid:Domain portion of address is invalid' };
      return {};
    },
  },
  [`${NS}Phone`]: {
    short: 'Phone',
    primary: 'PrimaryPhoneID',
    defaultLabel: 'Phone',
    weight: 500,
    fromString(s) {
      const digits = s.replace(/\D/g, '');
      return digits.length === 11 && digits[0] === '1' ? digits.slice(1) : digits;
    },
    toString: (d) => (/^\d{10}$/.test(d) ? `(${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}` : d),
    validate(d): Record<string, string> {
      const digits = d.replace(/\D/g, '');
      if (digits.length < 8 || digits.length > 15) return { number: 'Phone number invalid:Phone number must be between 8 and 15 digits' };
      if (digits.length === 10) {
        const [area, prefix, line] = [digits.slice(0, 3), digits.slice(3, 6), digits.slice(6)];
        const fictitious =
          area === '800' ? prefix === '555' && line === '0199' : ['844', '855', '866', '877', '888'].includes(area) ? prefix === '555' : prefix === '555' && line.startsWith('01');
        if (fictitious) return { number: 'Phone number invalid:Phone number reserved for fictitious use' };
      }
      return {};
    },
  },
  [`${NS}Postal`]: {
    short: 'Postal',
    primary: 'PrimaryPostalID',
    defaultLabel: 'Postal',
    weight: 100,
    fromString: parsePostal,
    toString: postalString,
    validate(d) {
      const a = postalParts(d);
      if (!a) return { Data: 'Invalid postal address serialization, unable to decode JSON' };
      const errors: Record<string, string> = {};
      if (!a.number) errors.number = 'Street number is required';
      if (!a.street) errors.street = 'Street name is required';
      if (!(a.postal || (a.city && a.state))) errors.postal = 'Postal code or city+state is required';
      return errors;
    },
  },
  [`${NS}Network`]: {
    short: 'Network',
    primary: null,
    defaultLabel: 'Network Id',
    weight: 50,
    fromString(s) {
      const on = /^(.+)\s+on\s+(\S+)$/.exec(s);
      if (on) return `${on[2]}/${on[1]}`;
      const slash = /^([^/]+)\/(.+)$/.exec(s);
      return slash ? `${slash[1]}/${slash[2]}` : '/';
    },
    toString(d) {
      const i = d.indexOf('/');
      return i < 0 ? d : `${d.slice(i + 1)} on ${d.slice(0, i)}`;
    },
    validate(d) {
      const i = d.indexOf('/');
      const [network, username] = i < 0 ? [d, ''] : [d.slice(0, i), d.slice(i + 1)];
      if (!network || !username) return { [network ? 'username' : 'network']: 'Network and username must be supplied in the form "hostname/username" or "username on hostname"' };
      if (!FQDN.test(network)) return { network: 'Network invalid:Hostname must be a fully-qualified domain name' };
      return {};
    },
  },
  [`${NS}Link`]: {
    short: 'Link',
    primary: null,
    defaultLabel: 'Link',
    weight: 0,
    fromString: (s) => s,
    toString: (d) => d,
    validate(d): Record<string, string> {
      const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(d)?.[1];
      if (!scheme || !['http', 'https'].includes(scheme.toLowerCase())) return { url: 'URL invalid:URL must start with one of: http, https' };
      return {};
    },
  },
};

/** Slate's class names, in its browse order (heavier first, then by name). */
export const POINT_CLASS_NAMES = Object.keys(POINT_CLASSES).sort((a, b) => POINT_CLASSES[b]!.weight - POINT_CLASSES[a]!.weight || a.localeCompare(b));

/** A full class name, or its last segment ("Email"), as the full name; null for anything else. */
export function pointClass(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const full = raw.includes('\\') ? raw : `${NS}${raw}`;
  return Object.hasOwn(POINT_CLASSES, full) ? full : null;
}

/** Slate's dynamic `String`. */
export const pointString = (p: Pick<ContactPoint, 'Class' | 'Data'>) => POINT_CLASSES[p.Class]?.toString(p.Data) ?? p.Data;

/** Slate's dynamic `Primary`: the person's primary field of the class points at this one. */
export function isPrimary(p: Pick<ContactPoint, 'ID' | 'Class'>, person: Record<string, unknown> | null | undefined): boolean {
  const field = POINT_CLASSES[p.Class]?.primary;
  return !!field && !!person && person[field] === p.ID;
}

export interface PointInput {
  PersonID?: unknown;
  Class?: unknown;
  Label?: unknown;
  String?: unknown;
  Data?: unknown;
  /** Ours: true makes it the person's primary one of its class (Slate sets Primary*ID on the person). */
  Primary?: unknown;
}

const truthy = (v: unknown) => v === true || v === 1 || v === '1' || v === 'true' || v === 'on';

/** Validates and resolves an input against the stored point (null when creating); throws RecordValidationError. */
async function resolveInput(deps: CampusDeps, input: PointInput, existing: ContactPoint | null) {
  const errors: Record<string, string> = {};
  const text = (name: keyof PointInput) => {
    const v = input[name];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string' && typeof v !== 'number') return void (errors[name] = `${name} is invalid.`);
    const s = String(v);
    if (holdsNul(s)) return void (errors[name] = `${name} is invalid.`);
    if (s.length > (name === 'Label' ? 255 : MAX_DATA)) return void (errors[name] = `${name} is too long.`);
    return s;
  };
  const className = input.Class === undefined || input.Class === null || input.Class === '' ? existing?.Class ?? null : pointClass(input.Class);
  if (!className) errors.Class = `Class must be one of: ${POINT_CLASS_NAMES.join(', ')}`;
  else if (existing && className !== existing.Class) errors.Class = 'The class of a contact point cannot be changed';
  let personId = existing?.PersonID ?? null;
  if (input.PersonID !== undefined && input.PersonID !== null && input.PersonID !== '') {
    const id = parseId(input.PersonID);
    const person = id === null ? null : await deps.db.person.findUnique({ where: { ID: id }, select: { ID: true } });
    if (!person) errors.PersonID = 'Person is required';
    else personId = person.ID;
  } else if (!existing) errors.PersonID = 'Person is required';
  const label = text('Label');
  const string = text('String');
  const data = text('Data');
  const cls = className ? POINT_CLASSES[className]! : null;
  // As Slate's applyRecordDelta: String is read as typed, else Data is the serialization.
  let serialized = existing?.Data ?? '';
  if (cls && string !== undefined) serialized = cls.fromString(string.trim());
  else if (cls && data !== undefined) serialized = data;
  if (cls && !errors.String && !errors.Data) {
    if (!serialized) errors.Data = 'No valid data has been loaded';
    else Object.assign(errors, cls.validate(serialized));
  }
  // Slate refuses a second email point with an address any point already has (Email::validate).
  if (cls?.short === 'Email' && !Object.keys(errors).length && serialized !== existing?.Data) {
    const taken = await deps.db.contactPoint.findFirst({ where: { Class: className!, Data: serialized, ...(existing ? { ID: { not: existing.ID } } : {}) }, select: { ID: true } });
    if (taken) errors.address = 'Cannot create an email contact point that matches an existing email contact point';
  }
  const finalLabel = label !== undefined ? label.trim() : existing?.Label ?? '';
  if (!finalLabel && !cls?.defaultLabel) errors.Label = 'A label is required';
  if (Object.keys(errors).length) throw new RecordValidationError(errors, { ...input });
  return { cls: cls!, Class: className!, PersonID: personId!, Label: finalLabel || cls!.defaultLabel, Data: serialized, primary: truthy(input.Primary) };
}

/**
 * A person's `Email`, `Phone` or `Postal` pseudo-field (write-only.ts): the text read as the
 * class reads it (Slate's fromString), the person's point with that value, or a new one with the
 * class's default label. Returns its ID, for the primary field. In the person's write transaction.
 */
export async function pointFromPersonField(deps: CampusDeps, personId: number, className: string, text: string): Promise<number> {
  const cls = POINT_CLASSES[className]!;
  const data = cls.fromString(text.trim());
  const existing = await deps.db.contactPoint.findFirst({ where: { PersonID: personId, Class: className, Data: data }, select: { ID: true } });
  if (existing) return existing.ID;
  const created = await deps.db.contactPoint.create({ data: { PersonID: personId, Class: className, Label: cls.defaultLabel, Data: data, Created: deps.clock.now() } });
  return created.ID;
}

/** Slate's Email::validate for a person's `Email` field: another person's email point with this address refuses it. */
export async function emailTakenByOther(deps: CampusDeps, personId: number | null, text: string): Promise<boolean> {
  const className = `${NS}Email`;
  const data = POINT_CLASSES[className]!.fromString(text.trim());
  const taken = await deps.db.contactPoint.findFirst({ where: { Class: className, Data: data, ...(personId === null ? {} : { PersonID: { not: personId } }) }, select: { ID: true } });
  return taken !== null;
}

/** Points the person's primary field of the class at the newest other point of it, or at none. */
async function promoteNext(deps: CampusDeps, personId: number, cls: PointClass, className: string, goneId: number) {
  if (!cls.primary) return;
  const person = await deps.db.person.findUnique({ where: { ID: personId } });
  if (!person || person[cls.primary] !== goneId) return;
  const next = await deps.db.contactPoint.findFirst({ where: { PersonID: personId, Class: className, ID: { not: goneId } }, orderBy: { ID: 'desc' } });
  await deps.db.person.update({ where: { ID: personId }, data: { [cls.primary]: next?.ID ?? null } });
}

/** AbstractPoint::save's rule: the person's first point of a class becomes the primary one (or this one, when asked). */
async function assignPrimary(deps: CampusDeps, point: ContactPoint, cls: PointClass, force: boolean) {
  if (!cls.primary) return;
  const person = await deps.db.person.findUnique({ where: { ID: point.PersonID } });
  if (person && (force || !person[cls.primary])) await deps.db.person.update({ where: { ID: point.PersonID }, data: { [cls.primary]: point.ID } });
}

export async function createContactPoint(deps: CampusDeps, viewer: Viewer, input: PointInput): Promise<ContactPoint> {
  requireLevel(viewer, 'Staff');
  return writeTransaction(deps, async (tx) => {
    const v = await resolveInput(tx, input, null);
    const point = await tx.db.contactPoint.create({
      data: { Class: v.Class, PersonID: v.PersonID, Label: v.Label, Data: v.Data, Created: tx.clock.now(), CreatorID: viewer.personId },
    });
    await assignPrimary(tx, point, v.cls, v.primary);
    await peopleChanged(tx, [point.PersonID]);
    return point;
  });
}

async function requirePoint(deps: CampusDeps, ident: string | number): Promise<ContactPoint> {
  const id = parseId(ident);
  const point = id === null ? null : await deps.db.contactPoint.findUnique({ where: { ID: id } });
  if (!point) throw notFound('Record not found');
  return point;
}

export async function editContactPoint(deps: CampusDeps, viewer: Viewer, ident: string | number, input: PointInput): Promise<ContactPoint> {
  requireLevel(viewer, 'Staff');
  return writeTransaction(deps, async (tx) => {
    const existing = await requirePoint(tx, ident);
    const v = await resolveInput(tx, input, existing);
    const point = await tx.db.contactPoint.update({
      where: { ID: existing.ID },
      data: { PersonID: v.PersonID, Label: v.Label, Data: v.Data, Modified: tx.clock.now(), ModifierID: viewer.personId },
    });
    // Moved to another person: the one it left must not keep pointing at it.
    if (existing.PersonID !== point.PersonID) await promoteNext(tx, existing.PersonID, v.cls, v.Class, point.ID);
    await assignPrimary(tx, point, v.cls, v.primary);
    await peopleChanged(tx, [existing.PersonID, point.PersonID]);
    return point;
  });
}

export async function deleteContactPoint(deps: CampusDeps, viewer: Viewer, ident: string | number): Promise<ContactPoint> {
  requireLevel(viewer, 'Staff');
  return writeTransaction(deps, async (tx) => {
    const point = await requirePoint(tx, ident);
    // The primary link moves first: on databases that check it, nothing points at a deleted row.
    const cls = POINT_CLASSES[point.Class];
    if (cls) await promoteNext(tx, point.PersonID, cls, point.Class, point.ID);
    await tx.db.contactPoint.delete({ where: { ID: point.ID } });
    await peopleChanged(tx, [point.PersonID]);
    return point;
  });
}

/** One contact point, for a caller who may read the person's contact points (contact-access.ts). */
export async function getContactPoint(deps: CampusDeps, viewer: Viewer, ident: string | number): Promise<ContactPoint> {
  requireLevel(viewer, 'User');
  const point = await requirePoint(deps, ident);
  await requireContactsReadable(deps, viewer, point.PersonID);
  return point;
}

export interface PointBrowse {
  /** Slate's `person=`: one person's points. */
  person?: number;
  /** Slate's `relatedTo=`: the person's and their related people's points. */
  relatedTo?: number;
  limit?: number;
  offset?: number;
}

/**
 * Slate's /contact-points browse: Staff see all; others only with `person=` naming themselves or
 * a ward (or `relatedTo=`, then only the people of those they may read). Heavier classes first.
 */
export async function browseContactPoints(deps: CampusDeps, viewer: Viewer, options: PointBrowse) {
  requireLevel(viewer, 'User');
  let personIds: number[] | null = null;
  if (options.person !== undefined) {
    await requireContactsReadable(deps, viewer, options.person);
    personIds = [options.person];
  } else if (options.relatedTo !== undefined) {
    const person = await deps.db.person.findUnique({ where: { ID: options.relatedTo }, select: { ID: true } });
    if (!person) throw notFound('relatedTo person not found');
    await requireContactsReadable(deps, viewer, person.ID);
    const related = await deps.db.personRelationship.findMany({ where: { PersonID: person.ID }, select: { RelatedPersonID: true } });
    const all = [person.ID, ...related.map((r) => r.RelatedPersonID)];
    const readable = await readablePeople(deps, viewer, all);
    personIds = all.filter((id) => readable.has(id));
  } else {
    requireLevel(viewer, 'Staff');
  }
  const rows = await deps.db.contactPoint.findMany({ where: personIds ? { PersonID: { in: personIds } } : {}, orderBy: { ID: 'asc' } });
  const rank = (c: string) => (POINT_CLASS_NAMES.indexOf(c) + POINT_CLASS_NAMES.length + 1) % (POINT_CLASS_NAMES.length + 1);
  rows.sort((a, b) => rank(a.Class) - rank(b.Class) || a.ID - b.ID);
  const offset = options.offset ?? 0;
  return { records: rows.slice(offset, options.limit === undefined ? undefined : offset + options.limit), total: rows.length };
}

/** Slate's /contact-points/*templates: the suggested labels and the class each belongs to. */
export const POINT_TEMPLATES: Array<{ class: string; label: string; placeholder?: string }> = [
  { class: `${NS}Email`, label: 'School Email' },
  { class: `${NS}Email`, label: 'Work Email', placeholder: 'username@example.com' },
  { class: `${NS}Email`, label: 'Personal Email', placeholder: 'username@example.com' },
  { class: `${NS}Link`, label: 'Website', placeholder: 'http://example.com' },
  { class: `${NS}Network`, label: 'Twitter' },
  { class: `${NS}Network`, label: 'Facebook' },
  { class: `${NS}Phone`, label: 'Mobile Phone', placeholder: '(555) 555-0155' },
  { class: `${NS}Phone`, label: 'Work Phone', placeholder: '(555) 555-0155' },
  { class: `${NS}Phone`, label: 'Home Phone', placeholder: '(555) 555-0155' },
  { class: `${NS}Postal`, label: 'Home Address', placeholder: '123 Street Rd, Unit 123, Exampletown, PA 12345' },
  { class: `${NS}Postal`, label: 'Work Address', placeholder: '123 Street Rd, Unit 123, Exampletown, PA 12345' },
];
