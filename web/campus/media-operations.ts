// Documents of a person's photos (PersonPhotos.tsx), and the upload, which is REST multipart
// (POST /media/upload: GraphQL takes JSON only). Types from `npm run codegen`.
import type * as G from '../../src/generated/graphql/graphql.ts';
import { doc } from '../lib/graphql.ts';

export const PERSON_PHOTOS = doc<G.CampusPersonPhotosQuery, G.CampusPersonPhotosQueryVariables>(/* GraphQL */ `
  query CampusPersonPhotos($id: ID!) {
    person(id: $id) {
      databaseId
      primaryPhoto { databaseId url thumbnailUrl(width: 400, height: 400) caption }
      photos { databaseId url thumbnailUrl(width: 150, height: 150, cropped: true) caption width height }
    }
  }
`);
export type PhotoRow = NonNullable<G.CampusPersonPhotosQuery['person']>['photos'][number];

export const SET_PRIMARY_PHOTO = doc<G.CampusSetPrimaryPhotoMutation, G.CampusSetPrimaryPhotoMutationVariables>(/* GraphQL */ `
  mutation CampusSetPrimaryPhoto($person: ID!, $media: ID) { setPrimaryPhoto(person: $person, media: $media) { databaseId } }
`);
export const DELETE_MEDIA = doc<G.CampusDeleteMediaMutation, G.CampusDeleteMediaMutationVariables>(/* GraphQL */ `
  mutation CampusDeleteMedia($id: ID!) { deleteMedia(id: $id) { databaseId } }
`);

/**
 * Uploads a photo of a person with the browser's session cookie (the server takes it for a
 * same-origin multipart POST); the server's message becomes the error.
 */
export async function uploadPhoto(personId: number, file: File, caption: string): Promise<number> {
  const form = new FormData();
  form.set('mediaFile', file);
  form.set('ContextClass', 'Emergence\\People\\Person');
  form.set('ContextID', String(personId));
  if (caption) form.set('Caption', caption);
  const res = await fetch('/media/upload', { method: 'POST', body: form, credentials: 'same-origin' });
  const body = (await res.json().catch(() => null)) as { success?: boolean; message?: string; error?: string; data?: { ID: number } } | null;
  if (!res.ok || !body?.success || !body.data) throw new Error(body?.message ?? body?.error ?? `Upload failed (${res.status})`);
  return body.data.ID;
}
