// What an upload is, decided from its bytes (never from the name or the type the client
// claims): a JPEG, PNG, GIF or WebP photo that sharp decodes completely, or a PDF document.
// Anything else is refused with a 400 before anything is stored.
import sharp from 'sharp';
import { InvalidRequestError } from '../limits.ts';

/** Largest upload (bytes): a phone photo is 2–6 MB. REST answers 413 beyond it. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** Largest photo (pixels): refuses decompression bombs before they are decoded (100 megapixels). */
const MAX_PIXELS = 100_000_000;

export const PHOTO_TYPES: Record<string, string> = { jpeg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp' };
export const PDF_TYPE = 'application/pdf';
export const UNSUPPORTED_TYPE = 'Unsupported file type: upload a JPEG, PNG, GIF or WebP photo, or a PDF document';
export const NOT_AN_IMAGE = 'The uploaded file is not a valid image';

export interface Inspected {
  /** Slate's Media subclass: PhotoMedia or PDFMedia. */
  Class: 'PhotoMedia' | 'PDFMedia';
  MIMEType: string;
  Width: number | null;
  Height: number | null;
}

const isPdf = (bytes: Uint8Array) => Buffer.from(bytes.subarray(0, 5)).toString('latin1') === '%PDF-';

/**
 * Inspects an upload. `claimedType` (the part's Content-Type) only chooses which check runs: a
 * part that says image/* must decode as one of the photo formats (else "not a valid image"),
 * one that says PDF must start like a PDF; octet-stream and an empty type are sniffed.
 */
export async function inspectUpload(bytes: Uint8Array, claimedType: string): Promise<Inspected> {
  const claimed = claimedType.toLowerCase();
  if (!bytes.length) throw new InvalidRequestError('The uploaded file is empty');
  const sniff = claimed === '' || claimed === 'application/octet-stream';
  if (claimed === PDF_TYPE || (sniff && isPdf(bytes))) {
    if (!isPdf(bytes)) throw new InvalidRequestError('The uploaded file is not a valid PDF document');
    return { Class: 'PDFMedia', MIMEType: PDF_TYPE, Width: null, Height: null };
  }
  if (!sniff && !claimed.startsWith('image/')) throw new InvalidRequestError(UNSUPPORTED_TYPE);
  let format: string | undefined;
  let width: number | undefined;
  let height: number | undefined;
  try {
    const image = sharp(bytes, { failOn: 'truncated', limitInputPixels: MAX_PIXELS, animated: false });
    ({ format, width, height } = await image.metadata());
    // Only photo formats are ever decoded further (never SVG or others sharp could read).
    if (!format || !(format in PHOTO_TYPES)) throw new InvalidRequestError(sniff ? UNSUPPORTED_TYPE : `${UNSUPPORTED_TYPE} (this is ${format ?? 'unknown'})`);
    // A full decode: a file with a valid header and broken pixels is refused now, not at its first thumbnail.
    await image.resize(16, 16, { fit: 'inside' }).raw().toBuffer();
  } catch (err) {
    if (err instanceof InvalidRequestError) throw err;
    throw new InvalidRequestError(NOT_AN_IMAGE);
  }
  if (!width || !height) throw new InvalidRequestError(NOT_AN_IMAGE);
  return { Class: 'PhotoMedia', MIMEType: PHOTO_TYPES[format]!, Width: width, Height: height };
}
