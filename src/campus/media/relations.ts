// A person's `Photos` and `PrimaryPhoto` for ?include= (relationships.ts): one query per name
// for the whole list. They are as visible as the person (whose record is already readable).
import type { Relation } from '../relation.ts';
import { mediaByIds, photosOf, type PublicMedia } from './service.ts';

/** Slate's Media fields only: the size is ours (GraphQL shows it). */
const slateFields = ({ Size: _size, ...rest }: PublicMedia) => rest;

export const PERSON_MEDIA_RELATIONS: Record<'Photos' | 'PrimaryPhoto', Relation> = {
  Photos: {
    kind: 'Media',
    many: true,
    async load(deps, records) {
      const photos = await photosOf(deps, records.map((r) => r.ID));
      return new Map([...photos].map(([id, list]) => [id, list.map(slateFields)]));
    },
  },
  PrimaryPhoto: {
    kind: 'Media',
    many: false,
    async load(deps, records) {
      const ids = [...new Set(records.map((r) => r.PrimaryPhotoID).filter((v): v is number => typeof v === 'number'))];
      const media = await mediaByIds(deps, ids);
      return new Map(records.map((r) => {
        const photo = media.get(r.PrimaryPhotoID as number);
        return [r.ID, photo ? slateFields(photo) : null];
      }));
    },
  },
};
