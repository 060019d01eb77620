// Slate's media routes (Emergence MediaRequestHandler, ThumbnailRequestHandler): upload
// (`POST /media/upload`, multipart field `mediaFile`), the record as JSON (`/media/<id>`), the
// file (`/media/open/<id>`), thumbnails (`/thumbnail/<id>/<w>x<h>[/cropped]`), a person's
// primary photo (`/people/<h>/thumbnail[/<w>x<h>[/cropped]]`), caption edit and delete.
// Files are answered with an ETag and `Cache-Control: private, no-cache`: browsers keep them
// but ask again each time (a 304), so a photo deleted or a profile disabled is gone at once.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Router from 'find-my-way';
import type { Logger } from 'pino';
import { viewerOrAnonymous, type Viewer } from '../../src/campus/auth.ts';
import type { CampusDeps } from '../../src/campus/lookup.ts';
import { MAX_UPLOAD_BYTES } from '../../src/campus/media/inspect.ts';
import { browseMedia, deleteMedia, getMedia, primaryPhotoOf, updateMediaCaption, uploadMedia, type MediaRow } from '../../src/campus/media/service.ts';
import { DEFAULT_THUMBNAIL, thumbnailBytes, thumbnailSize, thumbnailType, type ThumbnailSize } from '../../src/campus/media/thumbnails.ts';
import { campusViewerOf, signedInBy } from '../../src/identity/caller.ts';
import type { IdentityDeps } from '../../src/identity/context.ts';
import { HttpError, mediaType } from '../../src/http/body.ts';
import { BodyTooLarge, readBody, sendJson } from '../../src/http/respond.ts';
import { fromNodeHeaders, usableUploadSessionToken } from '../../src/http/session-cookie.ts';
import { notFound } from '../../src/shared/errors.ts';
import { readFields, sessionToken, singleField } from './request.ts';
import { sendCampusError } from './routes.ts';
import { intParam } from './browse.ts';
import { epoch } from './serialize.ts';

/** Slate's JSON of a Media record. */
export function mediaJson(media: Omit<MediaRow, 'StorageKey' | 'Size'>): Record<string, unknown> {
  return {
    ID: media.ID,
    Class: media.Class,
    Created: epoch(media.Created),
    CreatorID: media.CreatorID,
    ContextClass: media.ContextClass,
    ContextID: media.ContextID,
    MIMEType: media.MIMEType,
    Width: media.Width,
    Height: media.Height,
    Duration: media.Duration,
    Caption: media.Caption,
  };
}

/** Multipart framing around the file: the limit is on the file, not on its envelope. */
const MULTIPART_OVERHEAD = 64 * 1024;
export const UPLOAD_TOO_LARGE = `The uploaded file is too large: at most ${MAX_UPLOAD_BYTES / 1024 / 1024} MB`;
export const NO_FILE = 'You did not select a file to upload (multipart field mediaFile)';

interface Upload {
  file: File | null;
  fields: Record<string, string>;
}

/** The multipart body, bounded before it is parsed (WHATWG FormData over the bytes read). */
async function readUpload(req: IncomingMessage): Promise<Upload> {
  const type = mediaType(req.headers['content-type']);
  if (type !== 'multipart/form-data') throw new HttpError(415, 'Upload with Content-Type multipart/form-data (the file in field mediaFile)');
  let raw: Buffer;
  try {
    raw = await readBody(req, MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD);
  } catch (err) {
    if (err instanceof BodyTooLarge) throw new HttpError(413, UPLOAD_TOO_LARGE);
    throw err;
  }
  let form: FormData;
  try {
    form = await new Response(raw as Uint8Array<ArrayBuffer>, { headers: { 'content-type': req.headers['content-type']! } }).formData();
  } catch {
    throw new HttpError(400, 'The multipart body could not be read');
  }
  const fields: Record<string, string> = {};
  for (const [name, value] of form) if (typeof value === 'string') fields[name] = value;
  const file = form.get('mediaFile');
  return { file: file && typeof file !== 'string' ? file : null, fields };
}

/**
 * Who is asking. Slate's ways first (`Authorization: Token`, `_session`), else the app's session
 * cookie under the upload form of the CSRF rule (session-cookie.ts usableUploadSessionToken).
 */
async function viewerOf(campus: CampusDeps, identity: IdentityDeps, req: IncomingMessage, query: URLSearchParams, formSession?: string): Promise<Viewer> {
  const token = formSession || (await sessionToken(req, query));
  if (token) return viewerOrAnonymous(campus.db, token);
  const cookie = usableUploadSessionToken(req.method ?? 'GET', fromNodeHeaders(req.headers), identity.settings.siteRoot);
  const me = await signedInBy(identity, cookie);
  return me ? campusViewerOf(me) : viewerOrAnonymous(campus.db, null);
}

const etagMatches = (req: IncomingMessage, etag: string) => (req.headers['if-none-match'] ?? '').split(',').some((t) => t.trim() === etag || t.trim() === '*');

function fileHeaders(etag: string, type: string, length: number) {
  return { 'Content-Type': type, 'Content-Length': length, ETag: etag, 'Cache-Control': 'private, no-cache', 'X-Content-Type-Options': 'nosniff' };
}

export function registerMediaRoutes(router: Router.Instance<Router.HTTPVersion.V1>, campus: CampusDeps, identity: IdentityDeps, log: Logger) {
  type Serve = (ctx: { req: IncomingMessage; res: ServerResponse; query: URLSearchParams; params: Record<string, string | undefined> }) => Promise<void>;
  const on = (methods: Array<'GET' | 'POST'>, path: string, serve: Serve) =>
    router.on(methods, path, async (req, res, params) => {
      try {
        await serve({ req, res, query: new URL(req.url ?? '/', 'http://localhost').searchParams, params });
      } catch (err) {
        if (res.headersSent) return void res.destroy();
        sendCampusError(res, err, log);
      }
    });
  const viewer = (req: IncomingMessage, query: URLSearchParams, formSession?: string) => viewerOf(campus, identity, req, query, formSession);

  /** The original, streamed; 304 when the client has it. */
  async function sendOriginal(req: IncomingMessage, res: ServerResponse, media: MediaRow) {
    const etag = `"m${media.ID}-${media.StorageKey.slice(-12)}"`;
    if (etagMatches(req, etag)) return void res.writeHead(304, { ETag: etag, 'Cache-Control': 'private, no-cache' }).end();
    const file = await campus.media?.open(media.StorageKey);
    if (!file) throw notFound('The media file is missing');
    res.writeHead(200, { ...fileHeaders(etag, media.MIMEType, file.size), 'Content-Disposition': 'inline' });
    file.stream.on('error', (err) => {
      log.error({ err, media: media.ID }, 'media file read failed');
      res.destroy();
    });
    file.stream.pipe(res);
  }

  async function sendThumbnail(req: IncomingMessage, res: ServerResponse, media: MediaRow, size: ThumbnailSize) {
    if (media.Class !== 'PhotoMedia') throw notFound('This media has no thumbnail');
    const etag = `"t${media.ID}-${media.StorageKey.slice(-12)}-${size.width}x${size.height}${size.cropped ? 'c' : ''}"`;
    if (etagMatches(req, etag)) return void res.writeHead(304, { ETag: etag, 'Cache-Control': 'private, no-cache' }).end();
    const bytes = campus.media ? await thumbnailBytes(campus.media, media, size) : null;
    if (!bytes) throw notFound('The media file is missing');
    res.writeHead(200, fileHeaders(etag, thumbnailType(media.MIMEType), bytes.length));
    res.end(bytes);
  }

  on(['POST'], '/media/upload', async ({ req, res, query }) => {
    // The body first: its `_session` field may be who is uploading (Slate's form upload).
    const upload = await readUpload(req);
    const who = await viewer(req, query, upload.fields._session);
    if (!upload.file) throw new HttpError(400, NO_FILE);
    if (upload.file.size > MAX_UPLOAD_BYTES) throw new HttpError(413, UPLOAD_TOO_LARGE);
    const media = await uploadMedia(campus, who, {
      bytes: new Uint8Array(await upload.file.arrayBuffer()),
      type: upload.file.type,
      contextClass: upload.fields.ContextClass ?? query.get('ContextClass') ?? '',
      contextId: upload.fields.ContextID ?? query.get('ContextID') ?? '',
      caption: upload.fields.Caption,
    });
    sendJson(res, 200, { success: true, data: mediaJson(media) });
  });

  // Slate's browse of every media: Staff only (MediaRequestHandler's accountLevelBrowse).
  on(['GET'], '/media', async ({ req, res, query }) => {
    const offset = intParam(query.get('offset'));
    const result = await browseMedia(campus, await viewer(req, query), { limit: intParam(query.get('limit')), offset });
    sendJson(res, 200, { success: true, data: result.records.map(mediaJson), total: result.total, limit: result.limit ?? false, offset: offset ?? false });
  });

  on(['GET'], '/media/open/:id', async ({ req, res, query, params }) => {
    await sendOriginal(req, res, await getMedia(campus, await viewer(req, query), params.id!));
  });

  on(['GET', 'POST'], '/media/:id', async ({ req, res, query, params }) => {
    sendJson(res, 200, { success: true, data: mediaJson(await getMedia(campus, await viewer(req, query), params.id!)) });
  });

  on(['POST'], '/media/:id/edit', async ({ req, res, query, params }) => {
    const fields = await readFields(req);
    const media = await updateMediaCaption(campus, await viewer(req, query), params.id!, fields.Caption === undefined ? undefined : singleField(fields, 'Caption'));
    sendJson(res, 200, { success: true, data: mediaJson(media) });
  });

  on(['GET', 'POST'], '/media/:id/delete', async ({ req, res, query, params }) => {
    const who = await viewer(req, query);
    if (req.method === 'GET') {
      // Slate's confirmation step: nothing is deleted by a GET.
      return sendJson(res, 200, { question: 'Are you sure you want to delete this media?', data: mediaJson(await getMedia(campus, who, params.id!)) });
    }
    sendJson(res, 200, { success: true, data: mediaJson(await deleteMedia(campus, who, params.id!)) });
  });

  const thumbnail = (cropped: boolean): Serve => async ({ req, res, query, params }) => {
    const size = params.size ? thumbnailSize(params.size, cropped) : { ...DEFAULT_THUMBNAIL, cropped };
    await sendThumbnail(req, res, await getMedia(campus, await viewer(req, query), params.id!), size);
  };
  on(['GET'], '/thumbnail/:id', thumbnail(false));
  on(['GET'], '/thumbnail/:id/:size', thumbnail(false));
  on(['GET'], '/thumbnail/:id/:size/cropped', thumbnail(true));

  const personThumbnail = (cropped: boolean): Serve => async ({ req, res, query, params }) => {
    const size = params.size ? thumbnailSize(params.size, cropped) : { ...DEFAULT_THUMBNAIL, cropped };
    await sendThumbnail(req, res, await primaryPhotoOf(campus, await viewer(req, query), params.ident!), size);
  };
  on(['GET'], '/people/:ident/thumbnail', personThumbnail(false));
  on(['GET'], '/people/:ident/thumbnail/:size', personThumbnail(false));
  on(['GET'], '/people/:ident/thumbnail/:size/cropped', personThumbnail(true));
}
