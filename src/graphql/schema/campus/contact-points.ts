// A person's contact points over GraphQL: Person.contactPoints and the ContactPoint type
// (Slate's class, label, Data, String and Primary), and the mutations that call the same domain
// functions as REST's /contact-points. Lists load through one DataLoader per request and field.
import DataLoader from 'dataloader';
import type { GraphQLResolveInfo } from 'graphql';
import type { ObjectRef } from '@pothos/core';
import { builder } from '../builder.ts';
import type { GraphQLContext } from '../context.ts';
import { executionScope } from '../execution-scope.ts';
import { campusRefs } from './records.ts';
import type { ContactPoint as Row } from '../../../generated/prisma/client.ts';
import { KINDS } from '../../../campus/kinds.ts';
import { findRecord, type CampusRecord } from '../../../campus/lookup.ts';
import { readablePeople } from '../../../campus/contact-access.ts';
import { PERSON_CONTACT_RELATIONS } from '../../../campus/person-contact-relations.ts';
import { createContactPoint, deleteContactPoint, editContactPoint, isPrimary, POINT_CLASSES, pointString } from '../../../campus/contact-points.ts';
import { recordIdent } from './arguments.ts';

type Types = typeof builder.$inferSchemaTypes;
export const PersonRef = campusRefs.Person as ObjectRef<Types, CampusRecord>;

const scoped = new WeakMap<object, Map<string, DataLoader<number, unknown>>>();
/** The request's loader named `key` (one per execution, as records.ts keeps its own). */
export function requestLoader<V>(ctx: GraphQLContext, info: GraphQLResolveInfo, key: string, batch: (ids: number[]) => Promise<Map<number, V>>): DataLoader<number, V | null> {
  const scope = executionScope(ctx, info);
  let byKey = scoped.get(scope);
  if (!byKey) scoped.set(scope, (byKey = new Map()));
  let loader = byKey.get(key);
  if (!loader) {
    loader = new DataLoader<number, unknown>(async (ids) => {
      const map = await batch([...ids]);
      return ids.map((id) => map.get(id) ?? null);
    });
    byKey.set(key, loader);
  }
  return loader as DataLoader<number, V | null>;
}

/** Whether the caller may read the person's contact points and relationships (batched: one query per list at most). */
export async function contactsReadable(ctx: GraphQLContext, info: GraphQLResolveInfo, personId: number): Promise<boolean> {
  const viewer = await ctx.viewer();
  const loader = requestLoader(ctx, info, 'contactsReadable', async (ids) => {
    const ok = await readablePeople(ctx.campus, viewer, ids);
    return new Map(ids.map((id) => [id, ok.has(id)]));
  });
  return (await loader.load(personId)) === true;
}

/** A Person relation from person-contact-relations.ts, for each person of a list in one query. */
export function personRelation<V>(ctx: GraphQLContext, info: GraphQLResolveInfo, name: string) {
  return requestLoader<V[]>(ctx, info, `Person.${name}`, async (ids) => (await PERSON_CONTACT_RELATIONS[name]!.load(ctx.campus, ids.map((ID) => ({ ID })))) as Map<number, V[]>);
}

/** People by ID (a contact point's Primary, a relationship's people), one query per list. */
export const peopleById = (ctx: GraphQLContext, info: GraphQLResolveInfo) =>
  requestLoader<CampusRecord>(ctx, info, 'peopleById', async (ids) => {
    const rows = await ctx.campus.db.person.findMany({ where: { ID: { in: ids } } });
    return new Map(rows.map((p) => [p.ID, p as unknown as CampusRecord]));
  });

const ContactPointClass = builder.enumType('ContactPointClass', { values: Object.values(POINT_CLASSES).map((c) => c.short) });

export const ContactPointType = builder.objectRef<Row>('ContactPoint').implement({
  description: "One of a person's contact points (Slate's Emergence\\People\\ContactPoint\\*)",
  fields: (t) => ({
    databaseId: t.exposeInt('ID', { description: "The contact point's ID (Slate's)" }),
    personId: t.exposeInt('PersonID'),
    class: t.exposeString('Class', { description: "Slate's class name, e.g. Emergence\\People\\ContactPoint\\Email" }),
    kind: t.field({ type: ContactPointClass, resolve: (p) => POINT_CLASSES[p.Class]?.short ?? 'Link' }),
    label: t.string({ resolve: (p) => p.Label ?? POINT_CLASSES[p.Class]?.defaultLabel ?? '' }),
    data: t.exposeString('Data', { description: "Slate's serialization (digits for a phone, JSON for a postal address)" }),
    string: t.string({ description: 'The value as people read it (Slate\'s String)', resolve: (p) => pointString(p) }),
    primary: t.boolean({
      description: "Whether it is the person's primary one of its class (Slate's Primary)",
      resolve: async (p, _a, ctx, info) => isPrimary(p, await peopleById(ctx, info).load(p.PersonID)),
    }),
  }),
});

builder.objectFields(PersonRef, (t) => ({
  contactPoints: t.field({
    type: [ContactPointType],
    nullable: true,
    description: 'Staff, the person themselves and their guardians only (null for others), oldest first',
    resolve: async (p, _a, ctx, info) => ((await contactsReadable(ctx, info, p.ID)) ? ((await personRelation<Row>(ctx, info, 'ContactPoints').load(p.ID)) ?? []) : null),
  }),
}));

/** A person argument (ID, username, email or global id) as the ID the domain takes; unknown ones pass on to be refused there. */
export async function personIdArg(ctx: GraphQLContext, raw: string | number): Promise<unknown> {
  const found = await findRecord(ctx.campus, KINDS.Person, recordIdent(raw, KINDS.Person));
  return found?.ID ?? null;
}

builder.mutationFields((t) => ({
  createContactPoint: t.field({
    type: ContactPointType,
    description: 'Adds a contact point to a person (Staff); the first of its class becomes primary',
    args: {
      person: t.arg.id({ required: true, description: "Slate's ID, username or email address, or the person's global `id`" }),
      kind: t.arg({ type: ContactPointClass, required: true }),
      value: t.arg.string({ required: true, description: 'As people write it: "(215) 555-1234", "123 Main St, Philadelphia, PA 19104", "name on twitter.com"' }),
      label: t.arg.string({ description: 'Defaults to the class\'s label (Email, Phone, Postal, Network Id, Link)' }),
      primary: t.arg.boolean({ description: "Make it the person's primary one of its class" }),
    },
    resolve: async (_r, args, ctx) =>
      createContactPoint(ctx.campus, await ctx.viewer(), { PersonID: await personIdArg(ctx, args.person), Class: args.kind, String: args.value, Label: args.label, Primary: args.primary }),
  }),
  updateContactPoint: t.field({
    type: ContactPointType,
    args: { id: t.arg.id({ required: true, description: "The contact point's databaseId" }), value: t.arg.string(), label: t.arg.string(), primary: t.arg.boolean() },
    resolve: async (_r, args, ctx) => editContactPoint(ctx.campus, await ctx.viewer(), String(args.id), { String: args.value, Label: args.label, Primary: args.primary }),
  }),
  deleteContactPoint: t.boolean({
    description: "Deletes a contact point; a primary one's place goes to the newest other of its class",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => {
      await deleteContactPoint(ctx.campus, await ctx.viewer(), String(args.id));
      return true;
    },
  }),
}));
