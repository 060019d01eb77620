// The body of a blog post or page: its content items (Slate's Emergence\CMS\Item\*). Written
// through the record's `items` pseudo-field as Slate's AbstractRequestHandler::onRecordSaved
// does (an item with an ID is updated, one without is created, items left out are marked
// Deleted), inside the record's write transaction (write-only.ts); read in Order, then ID,
// without the Deleted ones (AbstractContent's Items relationship), with each body rendered.
import type { Viewer } from './auth.ts';
import { KINDS, type KindSpec } from './kinds.ts';
import { InvalidRequestError, MAX_INT, MAX_LIST_ITEMS, parseId } from './limits.ts';
import type { CampusDeps, CampusRecord } from './lookup.ts';
import type { Relation } from './relation.ts';
import { holdsNul } from '../shared/stored-text.ts';
import { decodeData, ITEM_CLASS_PREFIX, ITEM_KINDS, itemKind, mediaIdOf, renderItem, type ItemKind, type MediaRow } from './render-items.ts';

export const ITEM_STATUSES = ['Draft', 'Published', 'Hidden', 'Deleted'] as const;
/** Longest text item (Slate's Data column is a TEXT; 64 KiB of Markdown is a long article). */
export const ITEM_DATA_MAX_CHARS = 65_535;
/** What Slate sets as a media's context class when a post takes it (its root class). */
export const CONTENT_ROOT_CLASS = 'Emergence\\CMS\\AbstractContent';

/** One item of an `items` list, checked: what to write. Undefined fields are left as they are. */
export interface ItemPlan {
  ID: number | null;
  Class: string;
  Title?: string | null;
  Status?: string;
  Order: number;
  /** The Data to store (undefined: keep the stored one). */
  Data?: unknown;
  /** A Media item's caption, moved onto the media as Slate does. */
  Caption?: string | null;
}

const fail = (message: string): never => {
  throw new InvalidRequestError(message);
};

/** A list as JSON sends it, or as PHP hands over a form's `items[3][...]` (an object with index keys). */
function asList(raw: unknown): unknown[] {
  if (Array.isArray(raw)) return raw;
  if (raw && typeof raw === 'object' && Object.keys(raw).every((k) => /^\d+$/.test(k))) {
    return Object.entries(raw as Record<string, unknown>)
      .sort(([a], [b]) => Number(a) - Number(b))
      .map(([, v]) => v);
  }
  return fail('items must be a list of content items');
}

function className(raw: unknown, label: string): string {
  if (typeof raw !== 'string') return fail(`${label} Class is invalid`);
  const short = raw.startsWith(ITEM_CLASS_PREFIX) ? raw.slice(ITEM_CLASS_PREFIX.length) : raw;
  if (!(ITEM_KINDS as readonly string[]).includes(short)) return fail(`${label} Class must be one of ${ITEM_KINDS.join(', ')}`);
  return ITEM_CLASS_PREFIX + short;
}

function shortText(raw: unknown, label: string, max: number): string | null {
  if (raw === null || raw === undefined || raw === '') return null;
  if (typeof raw !== 'string' && typeof raw !== 'number') return fail(`${label} is invalid`);
  const s = String(raw).trim();
  if (holdsNul(s)) return fail(`${label} is invalid`);
  if (s.length > max) return fail(`${label} is too long: at most ${max} characters`);
  return s || null;
}

/**
 * A class's Data, checked: Text, Markdown and RichText are text, Embed is embed code or a URL,
 * Media names a media by ID (`{MediaID, Caption}`, or the bare ID). A form may also send text as
 * `Data[<Class>]` (e.g. `items[0][Data][Markdown]=…`); it is read as the text.
 */
function checkData(kind: ItemKind, raw: unknown, label: string): { data: unknown; caption?: string | null } {
  if (kind === 'Media') {
    const object = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : { MediaID: raw };
    const id = parseId(object.MediaID);
    if (!id) return fail(`${label} Data must name a media by its ID (MediaID)`);
    const caption = Object.hasOwn(object, 'Caption') ? shortText(object.Caption, `${label} Caption`, 255) : undefined;
    return { data: { MediaID: id }, caption };
  }
  let value = raw;
  if (value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 1 && Object.hasOwn(value, kind)) value = (value as Record<string, unknown>)[kind];
  if (typeof value !== 'string' || holdsNul(value)) return fail(`${label} Data must be text`);
  if (value.length > ITEM_DATA_MAX_CHARS) return fail(`${label} Data is too long: at most ${ITEM_DATA_MAX_CHARS} characters`);
  if (kind === 'Embed' && !value.trim()) return fail(`${label} Data must be embed code or a URL`);
  return { data: value };
}

interface StoredItem {
  ID: number;
  Class: string;
  ContentID: number;
}

/**
 * Reads and checks an `items` list against the record's stored items (none for a new record):
 * an ID must be one of this record's items (another post's item is refused, whether or not it
 * exists, so nothing tells which IDs are taken); a Media item's media must exist. Throws a 400
 * (InvalidRequestError) naming the item; nothing has been written when it does.
 */
export async function checkItems(deps: CampusDeps, kind: KindSpec, raw: unknown, existing: CampusRecord | null): Promise<ItemPlan[]> {
  const list = asList(raw);
  if (list.length > MAX_LIST_ITEMS) fail(`items may list at most ${MAX_LIST_ITEMS} items`);
  const wanted = list.map((item, i) => (item && typeof item === 'object' && !Array.isArray(item) ? parseId((item as Record<string, unknown>).ID) : null)).filter((id): id is number => !!id);
  const stored = new Map<number, StoredItem>(
    existing && wanted.length
      ? (await deps.db.contentItem.findMany({ where: { ContentID: existing.ID, ID: { in: wanted } }, select: { ID: true, Class: true, ContentID: true } })).map((r) => [r.ID, r])
      : [],
  );
  const seen = new Set<number>();
  const plans: ItemPlan[] = [];
  for (const [i, item] of list.entries()) {
    const label = `items[${i}]`;
    if (!item || typeof item !== 'object' || Array.isArray(item)) fail(`${label} must be an object`);
    const fields = item as Record<string, unknown>;
    // Slate: an ID that is empty or not numeric is a new item (the editor's phantom IDs).
    const given = fields.ID;
    const numeric = (typeof given === 'number' || (typeof given === 'string' && /^\d+$/.test(given))) && Number(given) > 0;
    const id = numeric ? parseId(given) : null;
    if (numeric && !id) fail(`${label} ID is invalid`);
    const current = id ? stored.get(id) : undefined;
    if (id && !current) fail(`Content item ${id} is not an item of this ${kind.noun}`);
    if (id && seen.has(id)) fail(`${label} repeats content item ${id}`);
    if (id) seen.add(id);
    const cls = fields.Class !== undefined && fields.Class !== null && fields.Class !== '' ? className(fields.Class, label) : (current?.Class ?? ITEM_CLASS_PREFIX + 'Text');
    const itemClass = itemKind(cls);
    if (!itemClass) fail(`${label} Class must be one of ${ITEM_KINDS.join(', ')}`);
    const plan: ItemPlan = { ID: id, Class: cls, Order: i + 1 };
    if (Object.hasOwn(fields, 'Title')) plan.Title = shortText(fields.Title, `${label} Title`, 255);
    if (fields.Status !== undefined && fields.Status !== null && fields.Status !== '') {
      if (typeof fields.Status !== 'string' || !(ITEM_STATUSES as readonly string[]).includes(fields.Status)) fail(`${label} Status must be one of ${ITEM_STATUSES.join(', ')}`);
      plan.Status = fields.Status as string;
    }
    // Order, when given, is kept; otherwise the list's order is the items' order.
    if (fields.Order !== undefined && fields.Order !== null && fields.Order !== '') {
      const order = parseId(fields.Order);
      if (order === null || order > MAX_INT) fail(`${label} Order must be a whole number from 0 to ${MAX_INT}`);
      plan.Order = order!;
    }
    const classChanged = !!current && current.Class !== cls;
    if (fields.Data !== undefined || !current || classChanged) {
      if (fields.Data === undefined || fields.Data === null) fail(`${label} Data is missing`);
      const { data, caption } = checkData(itemClass!, fields.Data, label);
      plan.Data = data;
      if (caption !== undefined) plan.Caption = caption;
    }
    plans.push(plan);
  }
  const mediaIds = [...new Set(plans.map((p) => mediaIdOf(p.Data)).filter((id): id is number => !!id))];
  if (mediaIds.length) {
    const found = new Set((await deps.db.media.findMany({ where: { ID: { in: mediaIds } }, select: { ID: true } })).map((m) => m.ID));
    const missing = mediaIds.find((id) => !found.has(id));
    if (missing) fail(`Media ${missing} does not exist`);
  }
  return plans;
}

/** Slate's `contextMedia[]`: IDs of media to attach to the post; ones that are not numeric are skipped, as in Slate. */
export function checkContextMedia(raw: unknown): number[] {
  if (raw === null || raw === undefined || raw === '') return [];
  const list = typeof raw === 'string' || typeof raw === 'number' ? [raw] : asList(raw);
  if (list.length > MAX_LIST_ITEMS) fail(`contextMedia may list at most ${MAX_LIST_ITEMS} items`);
  return [...new Set(list.map(parseId).filter((id): id is number => !!id))];
}

/**
 * Writes the checked items in the record's open transaction: updates and creates in list order,
 * then marks every other live item of the record Deleted. A Media item gives its media the post
 * as context (and its caption), as Slate's Item\Media::save does.
 */
export async function applyItems(tx: CampusDeps, viewer: Viewer, record: CampusRecord, plans: ItemPlan[]): Promise<void> {
  const now = tx.clock.now();
  const kept: number[] = [];
  for (const plan of plans) {
    const fields = {
      Class: plan.Class,
      Order: plan.Order,
      ...(plan.Title !== undefined ? { Title: plan.Title } : {}),
      ...(plan.Status !== undefined ? { Status: plan.Status } : {}),
      ...(plan.Data !== undefined ? { Data: JSON.stringify(plan.Data) } : {}),
    };
    if (plan.ID) {
      await tx.db.contentItem.update({ where: { ID: plan.ID }, data: { ...fields, Modified: now, ModifierID: viewer.personId } });
      kept.push(plan.ID);
    } else {
      const created = await tx.db.contentItem.create({
        data: { ...fields, Data: fields.Data ?? 'null', ContentID: record.ID, Created: now, CreatorID: viewer.personId, AuthorID: viewer.personId },
      });
      kept.push(created.ID);
    }
    const mediaId = mediaIdOf(plan.Data);
    if (mediaId) {
      await tx.db.media.update({
        where: { ID: mediaId },
        data: { ContextClass: CONTENT_ROOT_CLASS, ContextID: record.ID, ...(plan.Caption !== undefined ? { Caption: plan.Caption } : {}) },
      });
    }
  }
  await tx.db.contentItem.updateMany({
    where: { ContentID: record.ID, ID: { notIn: kept }, Status: { not: 'Deleted' } },
    data: { Status: 'Deleted', Modified: now, ModifierID: viewer.personId },
  });
}

/** Attaches media that have no context yet to the post (Slate skips media already in a context). */
export async function applyContextMedia(tx: CampusDeps, record: CampusRecord, ids: number[]): Promise<void> {
  if (!ids.length) return;
  await tx.db.media.updateMany({ where: { ID: { in: ids }, ContextClass: null }, data: { ContextClass: CONTENT_ROOT_CLASS, ContextID: record.ID } });
}

/** An item as both transports show it: Slate's columns (Data decoded), plus its rendered HTML. */
export interface ItemView {
  ID: number;
  Class: string;
  Created: Date;
  CreatorID: number | null;
  Modified: Date | null;
  ModifierID: number | null;
  Title: string | null;
  ContentID: number;
  AuthorID: number | null;
  Status: string;
  Order: number | null;
  Data: unknown;
  /** The item's body as sanitized HTML (REST's `?include=items` shows it under this key). */
  RenderedBody: string;
}

/**
 * The live items of each post (Order, then ID; Deleted ones left out), rendered: two queries for
 * any number of posts (the items, then the media the Media items name).
 */
export async function itemsOf(deps: CampusDeps, contentIds: number[]): Promise<Map<number, ItemView[]>> {
  const out = new Map<number, ItemView[]>(contentIds.map((id) => [id, []]));
  if (!contentIds.length) return out;
  const rows = await deps.db.contentItem.findMany({
    where: { ContentID: { in: contentIds }, Status: { not: 'Deleted' } },
    // Order first with nulls first on both databases (MySQL's order for Slate's ORDER BY `Order`).
    orderBy: [{ Order: { sort: 'asc', nulls: 'first' } }, { ID: 'asc' }],
  });
  const decoded = rows.map((r) => ({ ...r, Data: decodeData(r.Data) }));
  const mediaIds = [...new Set(decoded.filter((r) => itemKind(r.Class) === 'Media').map((r) => mediaIdOf(r.Data)).filter((id): id is number => !!id))];
  const media = new Map<number, MediaRow>(
    mediaIds.length ? (await deps.db.media.findMany({ where: { ID: { in: mediaIds } }, select: { ID: true, Class: true, Caption: true } })).map((m) => [m.ID, m]) : [],
  );
  for (const row of decoded) out.get(row.ContentID)?.push({ ...row, RenderedBody: renderItem(row, media) });
  return out;
}

/** The `items` relation (Slate's dynamic field `items`, relationship `Items`) for ?include= and GraphQL. */
export const contentItemsRelation: Relation = {
  kind: 'ContentItem',
  many: true,
  async load(deps, records) {
    const map = await itemsOf(deps, records.map((r) => r.ID));
    // `key` is the parent's ID (the include code's shape for rows that are not records).
    return new Map([...map].map(([id, items]) => [id, items.map((item) => ({ key: id, ...item }))]));
  },
};

/** Which of the two content kinds a Content row is (by its Class), or null when there is no such row. */
export async function contentKindOf(deps: CampusDeps, id: number): Promise<KindSpec | null> {
  const row = await deps.db.content.findUnique({ where: { ID: id }, select: { Class: true } });
  if (!row) return null;
  return [KINDS.BlogPost, KINDS.Page].find((k) => k.className === row.Class) ?? null;
}

/** The checked plans of a request's input, from the check (before any write) to the write, in one transaction. */
const checked = new WeakMap<object, { items?: ItemPlan[]; contextMedia: number[] }>();

/** write-only.ts's check for `items` and `contextMedia` (blog posts and pages); throws a 400 naming the problem. */
export async function checkContentWriteOnly(deps: CampusDeps, kind: KindSpec, input: Record<string, unknown>, existing: CampusRecord | null): Promise<void> {
  // A null `items` is one not given (as Slate ignores anything but an array).
  const items = input.items !== undefined && input.items !== null ? await checkItems(deps, kind, input.items, existing) : undefined;
  checked.set(input, { items, contextMedia: checkContextMedia(input.contextMedia) });
}

/** write-only.ts's write for `items` and `contextMedia`, in the record's transaction. */
export async function applyContentWriteOnly(tx: CampusDeps, viewer: Viewer, record: CampusRecord, input: Record<string, unknown>): Promise<void> {
  const plan = checked.get(input);
  if (!plan) return;
  checked.delete(input);
  if (plan.items) await applyItems(tx, viewer, record, plan.items);
  await applyContextMedia(tx, record, plan.contextMedia);
}
