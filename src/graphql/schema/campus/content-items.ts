// A blog post's or page's body over GraphQL: BlogPost.items / Page.items (ContentItem, its
// rendered and sanitized `html`), `body` (every item's HTML joined, Slate's renderBody), and
// setContentItems, which writes `items` exactly as REST's /<h>/edit does (content-items.ts,
// through the records service: same access, same transaction, same 400s as VALIDATION).
import DataLoader from 'dataloader';
import type { GraphQLResolveInfo } from 'graphql';
import type { ObjectRef } from '@pothos/core';
import { builder } from '../builder.ts';
import type { GraphQLContext } from '../context.ts';
import { executionScope } from '../execution-scope.ts';
import { globalKey, intArgument } from '../id-argument.ts';
import { intKey } from '../node-keys.ts';
import { campusRefs } from './records.ts';
import { KINDS, type KindName, type KindSpec } from '../../../campus/kinds.ts';
import type { CampusRecord } from '../../../campus/lookup.ts';
import { editRecord } from '../../../campus/service.ts';
import { contentKindOf, itemsOf, type ItemView } from '../../../campus/content-items.ts';
import { InvalidRequestError } from '../../../campus/limits.ts';
import { notFound } from '../../../shared/errors.ts';

// Posts and pages share a table and item IDs are unique across it: one loader per request
// serves both types, so a page of posts (and pages) loads its items in one go.
const loaders = new WeakMap<object, DataLoader<number, ItemView[]>>();
function itemLoader(ctx: GraphQLContext, info: GraphQLResolveInfo) {
  const scope = executionScope(ctx, info);
  let loader = loaders.get(scope);
  if (!loader) {
    loader = new DataLoader(async (ids: readonly number[]) => {
      const map = await itemsOf(ctx.campus, [...ids]);
      return ids.map((id) => map.get(id) ?? []);
    });
    loaders.set(scope, loader);
  }
  return loader;
}

const ContentItem = builder.objectRef<ItemView>('ContentItem').implement({
  description: "A piece of a blog post's or page's body (Slate's Emergence\\CMS\\Item\\*)",
  fields: (t) => ({
    databaseId: t.exposeInt('ID', { description: "The item's ID (Slate's); pass it back in setContentItems to keep the item" }),
    class: t.exposeString('Class', { description: 'Emergence\\CMS\\Item\\ Text, Markdown, RichText, Embed or Media' }),
    title: t.exposeString('Title', { nullable: true }),
    status: t.exposeString('Status', { description: 'Draft, Published or Hidden (Deleted items are not listed)' }),
    order: t.exposeInt('Order', { nullable: true }),
    created: t.expose('Created', { type: 'DateTime' }),
    modified: t.expose('Modified', { type: 'DateTime', nullable: true }),
    authorId: t.exposeInt('AuthorID', { nullable: true }),
    data: t.string({ description: "The item's Data as JSON (a text item's text is a JSON string; Media: {\"MediaID\": n})", resolve: (i) => JSON.stringify(i.Data) }),
    html: t.string({ description: "The body as HTML, sanitized by the server (no script, event handlers or javascript: URLs)", resolve: (i) => i.RenderedBody }),
  }),
});

type Types = typeof builder.$inferSchemaTypes;
for (const name of ['BlogPost', 'Page'] as const) {
  // The read rule is the post's (its type's auth scope): items appear only on a post the caller may read.
  builder.objectFields(campusRefs[name] as ObjectRef<Types, CampusRecord>, (t) => ({
    items: t.field({
      type: [ContentItem],
      description: 'The body, in Order then ID, without Deleted items',
      resolve: (r, _a, ctx, info) => itemLoader(ctx, info).load(r.ID),
    }),
    body: t.string({
      description: "Every item's HTML joined (Slate's renderBody); sanitized by the server",
      resolve: async (r, _a, ctx, info) => (await itemLoader(ctx, info).load(r.ID)).map((i) => i.RenderedBody).join(''),
    }),
  }));
}

const ContentItemInput = builder.inputType('ContentItemInput', {
  description: 'One item of setContentItems: with databaseId it updates that item, without it creates one',
  fields: (t) => ({
    databaseId: t.int({ description: "An existing item of this post (its databaseId); another post's item is refused" }),
    class: t.string({ description: 'Text (default for a new item), Markdown, RichText, Embed or Media; short or full class name' }),
    title: t.string(),
    status: t.string({ description: 'Draft, Published (default), Hidden or Deleted' }),
    order: t.int({ description: 'Default: the position in the list (1, 2, ...)' }),
    text: t.string({ description: 'The Data of a Text, Markdown, RichText or Embed item' }),
    data: t.string({ description: 'The Data as JSON instead of `text` (Media: {"MediaID": 3, "Caption": "..."})' }),
  }),
});

type ItemArg = { databaseId?: number | null; class?: string | null; title?: string | null; status?: string | null; order?: number | null; text?: string | null; data?: string | null };

/** The GraphQL item in Slate's field names (what REST's `items[]` carries). */
function slateItem(item: ItemArg, i: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (item.databaseId != null) out.ID = item.databaseId;
  if (item.class != null) out.Class = item.class;
  if (item.title !== undefined) out.Title = item.title;
  if (item.status != null) out.Status = item.status;
  if (item.order != null) out.Order = item.order;
  if (item.text != null && item.data != null) throw new InvalidRequestError(`items[${i}] takes text or data, not both`);
  if (item.text != null) out.Data = item.text;
  if (item.data != null) {
    try {
      out.Data = JSON.parse(item.data);
    } catch {
      throw new InvalidRequestError(`items[${i}] data is not valid JSON`);
    }
  }
  return out;
}

/** The post or page a `content:` argument names: its global `id` (either type) or its databaseId. */
async function contentArgument(ctx: GraphQLContext, raw: string): Promise<{ kind: KindSpec; id: number }> {
  for (const name of ['BlogPost', 'Page'] as KindName[]) {
    const found = globalKey(raw, [name], intKey);
    if (found?.key) return { kind: KINDS[name], id: found.key };
  }
  const id = intArgument(raw, ['BlogPost', 'Page']);
  const kind = id ? await contentKindOf(ctx.campus, id) : null;
  if (!id || !kind) throw notFound('Record not found');
  return { kind, id };
}

builder.mutationField('setContentItems', (t) =>
  t.field({
    type: [ContentItem],
    description: "Replaces a blog post's or page's items as Slate's save does: listed items with a databaseId are updated, others created, items left out marked Deleted. Returns the items now listed.",
    args: {
      content: t.arg.id({ required: true, description: "The post's or page's global `id`, or its databaseId" }),
      items: t.arg({ type: [ContentItemInput], required: true }),
    },
    resolve: async (_r, args, ctx) => {
      const { kind, id } = await contentArgument(ctx, String(args.content));
      const items = args.items.map((item, i) => slateItem(item, i));
      await editRecord(ctx.campus, await ctx.viewer(), kind, id, { items });
      return (await itemsOf(ctx.campus, [id])).get(id) ?? [];
    },
  }),
);
