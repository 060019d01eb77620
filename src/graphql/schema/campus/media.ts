// Media over GraphQL: a person's photos and primary photo (batched: one query per field for a
// whole page of people), and the media mutations, calling the same domain functions as REST.
// Uploads stay on REST (`POST /media/upload`, multipart): GraphQL here takes JSON only.
import type { GraphQLResolveInfo } from 'graphql';
import { builder } from '../builder.ts';
import type { GraphQLContext } from '../context.ts';
import { KINDS } from '../../../campus/kinds.ts';
import { isStaff } from '../../../campus/access.ts';
import type { CampusRecord } from '../../../campus/lookup.ts';
import { deleteMedia, mediaByIds, mediaId, photosOf, setPrimaryPhoto, updateMediaCaption, type PublicMedia } from '../../../campus/media/service.ts';
import { thumbnailSize } from '../../../campus/media/thumbnails.ts';
import { campusRefs } from './records.ts';
import { recordIdent } from './arguments.ts';
import { scopedLoader } from './notes.ts';

const MEDIA_ID = "The media's ID (Slate's, as in /media/<id>)";

export const MediaRef = builder.objectRef<PublicMedia>('Media').implement({
  description: "An uploaded file (Slate's Media: PhotoMedia or PDFMedia) attached to a record, a person's photo above all. Upload with REST: POST /media/upload (multipart field mediaFile, ContextClass, ContextID, Caption)",
  fields: (t) => ({
    databaseId: t.exposeInt('ID', { description: MEDIA_ID }),
    class: t.exposeString('Class', { description: 'PhotoMedia or PDFMedia' }),
    created: t.field({ type: 'DateTime', resolve: (m) => m.Created }),
    creatorId: t.exposeInt('CreatorID', { nullable: true, description: 'Who uploaded it' }),
    contextClass: t.exposeString('ContextClass', { nullable: true, description: 'The class of the record it belongs to (Emergence\\People\\Person for a photo of a person)' }),
    contextId: t.exposeInt('ContextID', { nullable: true }),
    mimeType: t.exposeString('MIMEType', { description: 'As found from the bytes: image/jpeg, image/png, image/gif, image/webp or application/pdf' }),
    width: t.exposeInt('Width', { nullable: true, description: 'Pixels (photos)' }),
    height: t.exposeInt('Height', { nullable: true, description: 'Pixels (photos)' }),
    size: t.exposeInt('Size', { description: 'Bytes of the original' }),
    caption: t.exposeString('Caption', { nullable: true }),
    url: t.string({ description: 'The original file: /media/open/<id> on this site (answers the session cookie)', resolve: (m) => `/media/open/${m.ID}` }),
    thumbnailUrl: t.string({
      nullable: true,
      description: 'A thumbnail fitting the box (cropped: filling it), /thumbnail/<id>/<w>x<h>[/cropped]; each side 1–1000; null for a PDF',
      args: { width: t.arg.int({ required: true }), height: t.arg.int({ required: true }), cropped: t.arg.boolean({ defaultValue: false }) },
      resolve: (m, args) => {
        const size = thumbnailSize(`${args.width}x${args.height}`, !!args.cropped);
        return m.Class === 'PhotoMedia' ? `/thumbnail/${m.ID}/${size.width}x${size.height}${size.cropped ? '/cropped' : ''}` : null;
      },
    }),
  }),
});

type Field = { field: (o: object) => unknown };

/** A Disabled person's photos are Staff's only, as REST's /media and /thumbnail answer 404 to others. */
const photosHidden = async (p: CampusRecord, ctx: GraphQLContext) => p.AccountLevel === 'Disabled' && !isStaff(await ctx.viewer());

builder.objectField(campusRefs.Person as never, 'photos', (t) =>
  (t as unknown as Field).field({
    type: [MediaRef],
    description: "The person's photos, oldest first (as visible as the person). Upload more with REST: POST /media/upload with ContextClass=Emergence\\People\\Person and ContextID",
    resolve: async (p: CampusRecord, _a: unknown, ctx: GraphQLContext, info: GraphQLResolveInfo) =>
      (await photosHidden(p, ctx)) ? [] : ((await scopedLoader(ctx, info, 'person-photos', (ids) => photosOf(ctx.campus, ids)).load(p.ID)) ?? []),
  }) as never,
);

builder.objectField(campusRefs.Person as never, 'primaryPhoto', (t) =>
  (t as unknown as Field).field({
    type: MediaRef,
    nullable: true,
    description: 'The photo shown for the person (the first one uploaded, until another is chosen with setPrimaryPhoto)',
    resolve: async (p: CampusRecord, _a: unknown, ctx: GraphQLContext, info: GraphQLResolveInfo) =>
      typeof p.PrimaryPhotoID === 'number' && !(await photosHidden(p, ctx)) ? scopedLoader(ctx, info, 'media-by-id', (ids) => mediaByIds(ctx.campus, ids)).load(p.PrimaryPhotoID) : null,
  }) as never,
);

builder.mutationFields((t) => ({
  setPrimaryPhoto: t.field({
    type: campusRefs.Person as never,
    description: "Chooses which of the person's own photos is their primary one (null: none); Staff, or the person",
    args: {
      person: t.arg.id({ required: true, description: "Slate's ID or username, or the person's global `id`" }),
      media: t.arg.id({ required: false, description: `${MEDIA_ID}; null or absent clears it` }),
    },
    resolve: (async (_r: unknown, args: { person: string | number; media?: string | number | null }, ctx: GraphQLContext) =>
      setPrimaryPhoto(ctx.campus, await ctx.viewer(), recordIdent(args.person, KINDS.Person), args.media ?? null)) as never,
  }),
  updateMediaCaption: t.field({
    type: MediaRef,
    description: "Sets a media's caption (null or empty clears it; at most 255 characters); Staff, or the person whose photo it is",
    args: { id: t.arg.id({ required: true, description: MEDIA_ID }), caption: t.arg.string({ required: false }) },
    resolve: async (_r, args, ctx) => stripKey(await updateMediaCaption(ctx.campus, await ctx.viewer(), mediaId(String(args.id)), args.caption ?? null)),
  }),
  deleteMedia: t.field({
    type: MediaRef,
    description: "Deletes a media and its file, returned as it was; a deleted primary photo is replaced by the person's newest other photo. Staff, or the person whose photo it is",
    args: { id: t.arg.id({ required: true, description: MEDIA_ID }) },
    resolve: async (_r, args, ctx) => stripKey(await deleteMedia(ctx.campus, await ctx.viewer(), mediaId(String(args.id)))),
  }),
}));

const stripKey = ({ StorageKey: _key, ...rest }: PublicMedia & { StorageKey: string }): PublicMedia => rest;
