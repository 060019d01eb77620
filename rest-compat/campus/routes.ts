// Slate-compatible record routes for the eight kinds, one generic route set per kind
// (Slate's RecordsRequestHandler): browse, read, create, edit, delete, save, destroy, login.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Router from 'find-my-way';
import type { Logger } from 'pino';
import { endSession, login, viewerFromToken, type Viewer } from '../../src/campus/auth.ts';
import { hasLevel, KIND_LIST, KINDS, type KindSpec } from '../../src/campus/kinds.ts';
import { RELATIONS, setSectionParticipant } from '../../src/campus/relationships.ts';
import { addComment } from '../../src/campus/comments.ts';
import * as records from '../../src/campus/service.ts';
import type { CampusDeps, CampusRecord } from '../../src/campus/service.ts';
import { InvalidRequestError, MAX_INT, MAX_LIST_ITEMS } from '../../src/campus/limits.ts';
import { HttpError } from '../../src/http/body.ts';
import { sendJson } from '../../src/http/respond.ts';
import { DomainError, RecordValidationError } from '../../src/shared/errors.ts';
import { linkJson, recordJson } from './serialize.ts';
import { readFields, sessionToken } from './request.ts';

type Handler = (ctx: { req: IncomingMessage; query: URLSearchParams; viewer: Viewer; params: Record<string, string | undefined> }) => Promise<unknown>;

function sendCampusError(res: ServerResponse, err: unknown, log: Logger) {
  // A malformed or oversized request (Slate's 400 "bad request params"); 413 and 415 for bodies.
  if (err instanceof HttpError) return sendJson(res, err.status, { success: false, message: err.message });
  if (err instanceof InvalidRequestError) return sendJson(res, 400, { success: false, message: err.message });
  if (err instanceof RecordValidationError) {
    // Slate answers a failed validation with 200 and success: false.
    return sendJson(res, 200, { success: false, data: err.record, validationErrors: err.fields, message: err.message });
  }
  if (err instanceof DomainError) {
    switch (err.code) {
      case 'VALIDATION':
        return sendJson(res, 200, { success: false, message: err.message });
      case 'UNAUTHENTICATED':
        return sendJson(res, 401, { success: false, loginRequired: true, requestContainer: '_LOGIN', error: err.message });
      case 'FORBIDDEN':
        return sendJson(res, 403, { success: false, message: err.message });
      case 'NOT_FOUND':
        return sendJson(res, 404, { success: false, message: err.message === 'not found' ? 'Record not found' : err.message });
      case 'CONFLICT':
        return sendJson(res, 409, { success: false, message: err.message });
    }
  }
  log.error({ err }, 'unexpected error in campus handler');
  return sendJson(res, 500, { success: false, message: 'internal server error' });
}

/** Related records named by ?include= (comma-separated), loaded for all records at once. */
async function withIncludes(deps: CampusDeps, kind: KindSpec, list: CampusRecord[], include: string | null, viewer: Viewer) {
  const out = list.map((r) => recordJson(kind, r, viewer));
  const names = new Set((include ?? '').split(',').map((s) => s.trim()).filter(Boolean));
  for (const name of names) {
    // Own names only: `__proto__` or `toString` are not relationships.
    const relation = Object.hasOwn(RELATIONS[kind.name], name) ? RELATIONS[kind.name][name] : undefined;
    if (!relation) continue; // Slate ignores names that are not declared dynamic fields.
    if (relation.readLevel && !hasLevel(viewer.level, relation.readLevel) && !(kind.name === 'Person' && list.every((r) => r.ID === viewer.personId))) continue;
    const loaded = await relation.load(deps, list);
    const shape = (v: unknown) => (relation.kind in KINDS ? recordJson(KINDS[relation.kind as keyof typeof KINDS], v as CampusRecord, viewer) : linkJson(v as CampusRecord));
    list.forEach((r, i) => {
      const value = loaded.get(r.ID);
      out[i]![name] = Array.isArray(value) ? value.map(shape) : value ? shape(value) : null;
    });
  }
  return out;
}

/**
 * Slate's browse paging: a value that is not all digits is ignored (ctype_digit), and digits
 * past the range saturate as PHP's integer cast does (here at the 32-bit maximum).
 */
const intParam = (v: string | null) => (v && /^\d+$/.test(v) ? Math.min(Number(v), MAX_INT) : undefined);

/** /save and /destroy take `{"data": [...]}` of at most MAX_LIST_ITEMS items (Slate's 400 otherwise). */
function batch(fields: Record<string, unknown>, message: string): unknown[] {
  if (!Array.isArray(fields.data)) throw new HttpError(400, message);
  if (fields.data.length > MAX_LIST_ITEMS) throw new HttpError(400, `Too many items in "data": at most ${MAX_LIST_ITEMS}`);
  return fields.data;
}

export function registerCampusRoutes(router: Router.Instance<Router.HTTPVersion.V1>, deps: CampusDeps, log: Logger) {
  function route(methods: Array<'GET' | 'POST'>, path: string, handler: Handler) {
    router.on(methods, path, async (req, res, params) => {
      const query = new URL(req.url ?? '/', 'http://localhost').searchParams;
      try {
        const viewer = await viewerFromToken(deps.db, sessionToken(req, query));
        const body = await handler({ req, query, viewer, params });
        sendJson(res, 200, body);
      } catch (err) {
        try {
          sendCampusError(res, err, log);
        } catch (sendErr) {
          // Last resort: a reply that cannot be written must not take the process down.
          log.error({ err: sendErr }, 'could not send campus error');
          if (!res.headersSent) sendJson(res, 500, { success: false, message: 'internal server error' });
          else res.destroy();
        }
      }
    });
  }

  for (const kind of KIND_LIST) {
    const base = `/${kind.prefix}`;
    const one = async (viewer: Viewer, record: CampusRecord, query: URLSearchParams) =>
      (await withIncludes(deps, kind, [record], query.get('include'), viewer))[0];

    route(['GET'], base, async ({ query, viewer }) => {
      const limit = intParam(query.get('limit'));
      const offset = intParam(query.get('offset'));
      const { records: list, total } = await records.browseRecords(deps, viewer, kind, {
        limit,
        offset,
        sort: query.get('sort') ?? undefined,
        dir: query.get('dir') === 'DESC' ? 'DESC' : 'ASC',
        q: query.get('q') ?? undefined,
      });
      const body: Record<string, unknown> = {
        success: true,
        data: await withIncludes(deps, kind, list, query.get('include'), viewer),
        conditions: [],
        total,
        limit: limit || false,
        offset: limit ? offset ?? 0 : false,
      };
      if (query.get('q')) body.query = query.get('q');
      return body;
    });

    route(['POST'], `${base}/create`, async ({ req, query, viewer }) => {
      const fields = await readFields(req);
      const record = await records.createRecord(deps, viewer, kind, fields);
      return { success: true, data: await one(viewer, record, query) };
    });

    route(['POST'], `${base}/save`, async ({ req, viewer }) => {
      const fields = await readFields(req);
      const items = batch(fields, 'Save expects "data" field as array of record deltas');
      // Every item is checked before any is saved: a bad one stores nothing.
      const bad = items.findIndex((item) => typeof item !== 'object' || item === null || Array.isArray(item));
      if (bad >= 0) throw new HttpError(400, `Save expects "data" field as array of record deltas: item ${bad} is not an object`);
      const saved: unknown[] = [];
      const failed: unknown[] = [];
      for (const item of items as Array<Record<string, unknown>>) {
        try {
          const id = item.ID;
          const record =
            typeof id === 'number' && id > 0
              ? await records.editRecord(deps, viewer, kind, id, item)
              : await records.createRecord(deps, viewer, kind, item);
          saved.push(recordJson(kind, record, viewer));
        } catch (err) {
          if (err instanceof RecordValidationError) failed.push({ record: item, validationErrors: err.fields });
          else if (err instanceof DomainError) failed.push({ record: item, errors: err.message });
          else throw err;
        }
      }
      const first = failed[0] as { validationErrors?: Record<string, string>; errors?: string } | undefined;
      const message = first ? (first.errors ?? Object.values(first.validationErrors ?? {})[0] ?? null) : null;
      return { success: saved.length > 0 || failed.length === 0, data: saved, failed, message };
    });

    route(['POST'], `${base}/destroy`, async ({ req, viewer }) => {
      const fields = await readFields(req);
      const items = batch(fields, 'Handler expects "data" field as array');
      const deleted: unknown[] = [];
      const failed: unknown[] = [];
      for (const item of items) {
        // As in PHP: an object's ID, or the item itself; a list has no ID.
        const id = typeof item === 'object' && item !== null && !Array.isArray(item) ? (item as { ID?: unknown }).ID : item;
        if ((typeof id !== 'string' && typeof id !== 'number') || id === '') {
          failed.push({ record: item, errors: 'ID missing' });
          continue;
        }
        try {
          deleted.push(recordJson(kind, await records.deleteRecord(deps, viewer, kind, String(id)), viewer));
        } catch (err) {
          if (!(err instanceof DomainError)) throw err;
          failed.push({ record: item, errors: err.code === 'NOT_FOUND' ? 'ID not found' : err.message });
        }
      }
      return { success: failed.length === 0, data: deleted, failed };
    });

    route(['GET'], `${base}/:ident`, async ({ query, viewer, params }) => {
      const record = await records.getRecord(deps, viewer, kind, params.ident!);
      return { success: true, data: await one(viewer, record, query) };
    });

    route(['POST'], `${base}/:ident/edit`, async ({ req, query, viewer, params }) => {
      const fields = await readFields(req);
      const record = await records.editRecord(deps, viewer, kind, params.ident!, fields);
      return { success: true, data: await one(viewer, record, query) };
    });

    route(['POST'], `${base}/:ident/comment`, async ({ req, query, viewer, params }) => {
      const fields = await readFields(req);
      const comment = await addComment(deps, viewer, kind, params.ident!, fields.Message);
      return { success: true, data: linkJson(comment) };
    });

    route(['GET', 'POST'], `${base}/:ident/delete`, async ({ req, query, viewer, params }) => {
      if (req.method === 'GET') {
        // Slate's confirmation step: nothing is deleted by a GET.
        const record = await records.getRecord(deps, viewer, kind, params.ident!);
        return { question: `Are you sure you want to delete this ${kind.noun}?`, data: recordJson(kind, record, viewer) };
      }
      const record = await records.deleteRecord(deps, viewer, kind, params.ident!);
      return { success: true, data: recordJson(kind, record, viewer) };
    });
  }

  route(['POST'], '/section-participants/create', async ({ req, viewer }) => {
    const f = await readFields(req);
    const row = await setSectionParticipant(deps, viewer, String(f.CourseSectionID ?? ''), String(f.PersonID ?? ''), String(f.Role ?? ''));
    return { success: true, data: linkJson(row) };
  });

  route(['POST'], '/login', async ({ req }) => {
    const f = await readFields(req);
    const { person, token, session } = await login(deps.db, String(f['_LOGIN[username]'] ?? f.username ?? ''), String(f['_LOGIN[password]'] ?? f.password ?? ''));
    return { success: true, data: { ID: session.ID, Class: 'UserSession', Created: Math.floor(session.Created.getTime() / 1000), Handle: token, PersonID: person.ID } };
  });

  route(['GET', 'POST'], '/login/logout', async ({ req, query }) => {
    const token = sessionToken(req, query);
    if (token) await endSession(deps.db, token);
    return { success: true };
  });

}
