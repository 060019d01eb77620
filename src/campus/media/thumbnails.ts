// Thumbnails: the original scaled to fit a box (or to cover it, cropped), made once per media
// and size and kept in the storage port under the media's key, so the next request is a read.
import sharp from 'sharp';
import { InvalidRequestError } from '../limits.ts';
import type { MediaStorage } from './storage.ts';

/** Largest thumbnail box: bigger asks are refused (400), so no request makes huge images. */
export const MAX_THUMBNAIL_SIDE = 1000;
/** Emergence's MediaRequestHandler default box. */
export const DEFAULT_THUMBNAIL = { width: 100, height: 100 };

export interface ThumbnailSize {
  width: number;
  height: number;
  cropped: boolean;
}

/** `<w>x<h>` as in Slate's paths; each side 1..MAX_THUMBNAIL_SIDE. */
export function thumbnailSize(text: string, cropped: boolean): ThumbnailSize {
  const m = /^([1-9]\d{0,3})x([1-9]\d{0,3})$/.exec(text);
  if (!m) throw new InvalidRequestError('Thumbnail size must be <width>x<height>, e.g. 400x400');
  const width = Number(m[1]);
  const height = Number(m[2]);
  if (width > MAX_THUMBNAIL_SIDE || height > MAX_THUMBNAIL_SIDE) throw new InvalidRequestError(`Thumbnail size must be at most ${MAX_THUMBNAIL_SIDE}x${MAX_THUMBNAIL_SIDE}`);
  return { width, height, cropped };
}

/** Where a media's thumbnails live: below `thumbnails/<its storage key>/`. */
export const thumbnailPrefix = (storageKey: string) => `thumbnails/${storageKey}`;
const sizeName = (s: ThumbnailSize) => `${s.width}x${s.height}${s.cropped ? '-cropped' : ''}`;
export const thumbnailKey = (storageKey: string, s: ThumbnailSize) => `${thumbnailPrefix(storageKey)}/${sizeName(s)}`;

/** JPEG and WebP stay themselves; PNG and GIF thumbnails are PNG (transparency kept, one frame). */
export const thumbnailType = (mime: string) => (mime === 'image/jpeg' || mime === 'image/webp' ? mime : 'image/png');

/** The thumbnail's bytes: from the cache, else made from the original and cached. */
export async function thumbnailBytes(storage: MediaStorage, media: { StorageKey: string; MIMEType: string }, size: ThumbnailSize): Promise<Buffer | null> {
  const key = thumbnailKey(media.StorageKey, size);
  const cached = await storage.get(key);
  if (cached) return cached;
  const original = await storage.get(media.StorageKey);
  if (!original) return null;
  // rotate(): EXIF orientation applied, so a phone's portrait photo stays portrait.
  let image = sharp(original, { animated: false })
    .rotate()
    .resize(size.width, size.height, { fit: size.cropped ? 'cover' : 'inside', withoutEnlargement: !size.cropped });
  const type = thumbnailType(media.MIMEType);
  image = type === 'image/jpeg' ? image.jpeg({ quality: 85 }) : type === 'image/webp' ? image.webp() : image.png();
  const bytes = await image.toBuffer();
  await storage.put(key, bytes);
  return bytes;
}
