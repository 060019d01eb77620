// How people are related over GraphQL: Person.relationships, guardians and wards, the
// PersonRelationship type (Slate's Relationship: label, notes, guardian or not, the related
// person, the inverse row), and setRelationship / deleteRelationship, which keep the inverse
// in step through the same domain functions as REST's /relationships.
import type { GraphQLResolveInfo } from 'graphql';
import { builder } from '../builder.ts';
import type { GraphQLContext } from '../context.ts';
import { KINDS } from '../../../campus/kinds.ts';
import type { CampusRecord } from '../../../campus/lookup.ts';
import { GUARDIAN_CLASS, RELATIONSHIP_CLASS } from '../../../campus/contact-access.ts';
import { deleteRelationship, inversesOf, setRelationship } from '../../../campus/person-relationships.ts';
import { relationshipJson } from '../../../campus/person-contact-relations.ts';
import type { PersonRelationship as Row } from '../../../generated/prisma/client.ts';
import { readableOnly, readableOrNull } from './fields.ts';
import { contactsReadable, peopleById, PersonRef, personIdArg, personRelation, requestLoader } from './contact-points.ts';

/** A relationship row in Slate's names (Label), as person-contact-relations.ts loads it. */
interface Shaped {
  ID: number;
  Class: string;
  PersonID: number;
  RelatedPersonID: number;
  Label: string | null;
  Notes: string | null;
}
const shaped = (r: Row) => relationshipJson(r) as unknown as Shaped;

/** Each row's inverse, one query per list. */
const inverseOf = (ctx: GraphQLContext, info: GraphQLResolveInfo) =>
  requestLoader<Shaped>(ctx, info, 'relationshipInverse', async (ids) => {
    const rows = await ctx.campus.db.personRelationship.findMany({ where: { ID: { in: ids } } });
    const inverses = await inversesOf(ctx.campus, rows);
    return new Map([...inverses].filter(([, v]) => v).map(([id, v]) => [id, shaped(v!)]));
  });

export const PersonRelationshipType = builder.objectRef<Shaped>('PersonRelationship');
PersonRelationshipType.implement({
  description: "How a person is related to another (Slate's Emergence\\People\\Relationship): relatedPerson is person's <label>",
  fields: (t) => ({
    databaseId: t.exposeInt('ID'),
    class: t.exposeString('Class', { description: `${RELATIONSHIP_CLASS} or ${GUARDIAN_CLASS}` }),
    guardian: t.boolean({ description: 'relatedPerson is a guardian of person', resolve: (r) => r.Class === GUARDIAN_CLASS }),
    label: t.string({ resolve: (r) => r.Label ?? '' }),
    notes: t.string({ nullable: true, resolve: (r) => r.Notes }),
    personId: t.exposeInt('PersonID'),
    relatedPersonId: t.exposeInt('RelatedPersonID'),
    person: t.field({
      type: PersonRef,
      nullable: true,
      resolve: async (r, _a, ctx, info) => readableOrNull(KINDS.Person, await peopleById(ctx, info).load(r.PersonID), ctx),
    }),
    relatedPerson: t.field({
      type: PersonRef,
      nullable: true,
      resolve: async (r, _a, ctx, info) => readableOrNull(KINDS.Person, await peopleById(ctx, info).load(r.RelatedPersonID), ctx),
    }),
    inverse: t.field({
      type: PersonRelationshipType,
      nullable: true,
      description: "relatedPerson's row about person (Slate's InverseRelationship)",
      resolve: async (r, _a, ctx, info) => inverseOf(ctx, info).load(r.ID),
    }),
  }),
});

const hidden = 'Staff, the person themselves and their guardians only (null for others)';
/** A person's relationship rows, or null when the caller may not see them. */
const rowsOf = (name: string) => async (p: CampusRecord, _a: unknown, ctx: GraphQLContext, info: GraphQLResolveInfo) =>
  (await contactsReadable(ctx, info, p.ID)) ? ((await personRelation<Shaped>(ctx, info, name).load(p.ID)) ?? []) : null;

/** A person's guardians or wards the caller may read; empty when they may not see the person's relationships (as other person lists filter). */
const peopleOf = (name: string) => async (p: CampusRecord, _a: unknown, ctx: GraphQLContext, info: GraphQLResolveInfo) =>
  (await contactsReadable(ctx, info, p.ID)) ? readableOnly(KINDS.Person, (await personRelation<CampusRecord>(ctx, info, name).load(p.ID)) ?? [], ctx) : [];

builder.objectFields(PersonRef, (t) => ({
  relationships: t.field({ type: [PersonRelationshipType], nullable: true, description: `This person's relationships, oldest first. ${hidden}`, resolve: rowsOf('Relationships') }),
  guardianRelationships: t.field({ type: [PersonRelationshipType], nullable: true, description: `Those naming a guardian. ${hidden}`, resolve: rowsOf('GuardianRelationships') }),
  guardians: t.field({ type: [PersonRef], description: "This person's guardians: Staff, the person themselves and their guardians only (empty for others)", resolve: peopleOf('Guardians') }),
  wards: t.field({ type: [PersonRef], description: 'The people this person is a guardian of: Staff, the person and their guardians only (empty for others)', resolve: peopleOf('Wards') }),
}));

builder.mutationFields((t) => ({
  setRelationship: t.field({
    type: PersonRelationshipType,
    description:
      "Sets how relatedPerson is related to person (Staff), creating or updating the pair's row; its inverse follows Slate's templates (mother → son/daughter/child) unless inverseLabel is given",
    args: {
      person: t.arg.id({ required: true, description: "Slate's ID, username or email address, or the person's global `id`" }),
      relatedPerson: t.arg.id({ required: true, description: 'The same forms as person' }),
      label: t.arg.string({ required: true, description: 'mother, father, guardian, aunt… (any text)' }),
      notes: t.arg.string(),
      guardian: t.arg.boolean({ description: 'Whether relatedPerson is a guardian; by default as the label\'s template says' }),
      inverseLabel: t.arg.string({ description: "person's relationship to relatedPerson, when the templates do not know the label" }),
    },
    resolve: async (_r, args, ctx) => {
      const write = await setRelationship(ctx.campus, await ctx.viewer(), {
        PersonID: await personIdArg(ctx, args.person),
        RelatedPersonID: await personIdArg(ctx, args.relatedPerson),
        Label: args.label,
        Notes: args.notes ?? undefined,
        Class: args.guardian === true ? GUARDIAN_CLASS : args.guardian === false ? RELATIONSHIP_CLASS : undefined,
        InverseRelationship: args.inverseLabel ? { Label: args.inverseLabel } : undefined,
      });
      return shaped(write.relationship);
    },
  }),
  deleteRelationship: t.boolean({
    description: 'Deletes a relationship and its inverse (Staff)',
    args: { id: t.arg.id({ required: true, description: "The relationship's databaseId" }) },
    resolve: async (_r, args, ctx) => {
      await deleteRelationship(ctx.campus, await ctx.viewer(), String(args.id));
      return true;
    },
  }),
}));
