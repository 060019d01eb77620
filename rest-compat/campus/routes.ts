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
import { sendJson } from '../../src/http/respond.ts';
import { DomainError, RecordValidationError, validationError } from '../../src/shared/errors.ts';
import { linkJson, recordJson } from './serialize.ts';
import { readFields, sessionToken } from './request.ts';

type Handler = (ctx: { req: IncomingMessage; query: URLSearchParams; viewer: Viewer; params: Record<string, string | undefined> }) => Promise<unknown>;

function sendCampusError(res: ServerResponse, err: unknown, log: Logger) {
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
  const names = (include ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  for (const name of names) {
    const relation = RELATIONS[kind.name][name];
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

const intParam = (v: string | null) => (v && /^\d+$/.test(v) ? Number(v) : undefined);

export function registerCampusRoutes(router: Router.Instance<Router.HTTPVersion.V1>, deps: CampusDeps, log: Logger) {
  function route(methods: Array<'GET' | 'POST'>, path: string, handler: Handler) {
    router.on(methods, path, async (req, res, params) => {
      const query = new URL(req.url ?? '/', 'http://localhost').searchParams;
      try {
        const viewer = await viewerFromToken(deps.db, sessionToken(req, query));
        const body = await handler({ req, query, viewer, params });
        sendJson(res, 200, body);
      } catch (err) {
        sendCampusError(res, err, log);
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
      const fields = await readFields(req, query);
      const record = await records.createRecord(deps, viewer, kind, fields);
      return { success: true, data: await one(viewer, record, query) };
    });

    route(['POST'], `${base}/save`, async ({ req, query, viewer }) => {
      const fields = await readFields(req, query);
      if (!Array.isArray(fields.data)) throw validationError('Save expects "data" field as array of record deltas');
      const saved: unknown[] = [];
      const failed: unknown[] = [];
      for (const item of fields.data as Array<Record<string, unknown>>) {
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

    route(['POST'], `${base}/destroy`, async ({ req, query, viewer }) => {
      const fields = await readFields(req, query);
      if (!Array.isArray(fields.data)) throw validationError('Handler expects "data" field as array');
      const deleted: unknown[] = [];
      const failed: unknown[] = [];
      for (const item of fields.data as unknown[]) {
        const id = typeof item === 'object' && item !== null ? (item as { ID?: unknown }).ID : item;
        if (id === undefined || id === null || id === '') {
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
      const fields = await readFields(req, query);
      const record = await records.editRecord(deps, viewer, kind, params.ident!, fields);
      return { success: true, data: await one(viewer, record, query) };
    });

    route(['POST'], `${base}/:ident/comment`, async ({ req, query, viewer, params }) => {
      const fields = await readFields(req, query);
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

  route(['POST'], '/section-participants/create', async ({ req, query, viewer }) => {
    const f = await readFields(req, query);
    const row = await setSectionParticipant(deps, viewer, String(f.CourseSectionID ?? ''), String(f.PersonID ?? ''), String(f.Role ?? ''));
    return { success: true, data: linkJson(row) };
  });

  route(['POST'], '/login', async ({ req, query }) => {
    const f = await readFields(req, query);
    const { person, token, session } = await login(deps.db, String(f['_LOGIN[username]'] ?? f.username ?? ''), String(f['_LOGIN[password]'] ?? f.password ?? ''));
    return { success: true, data: { ID: session.ID, Class: 'UserSession', Created: Math.floor(session.Created.getTime() / 1000), Handle: token, PersonID: person.ID } };
  });

  route(['GET', 'POST'], '/login/logout', async ({ req, query }) => {
    const token = sessionToken(req, query);
    if (token) await endSession(deps.db, token);
    return { success: true };
  });

}
