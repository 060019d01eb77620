// Slate-compatible record routes for the eight kinds, one generic route set per kind
// (Slate's RecordsRequestHandler): browse, read, the create and edit forms, create, edit,
// delete, save, destroy, comment; extras.ts has the rest.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Router from 'find-my-way';
import type { Logger } from 'pino';
import { viewerOrAnonymous, type Viewer } from '../../src/campus/auth.ts';
import { KIND_LIST, type KindSpec } from '../../src/campus/kinds.ts';
import { addComment } from '../../src/campus/comments.ts';
import * as records from '../../src/campus/service.ts';
import type { CampusDeps, CampusRecord } from '../../src/campus/service.ts';
import { InvalidRequestError, MAX_LIST_ITEMS } from '../../src/campus/limits.ts';
import { HttpError } from '../../src/http/body.ts';
import { sendJson } from '../../src/http/respond.ts';
import { DomainError, notFound, RecordValidationError } from '../../src/shared/errors.ts';
import { linkJson, recordJson, templateJson } from './serialize.ts';
import { readFields, sessionToken } from './request.ts';
import { browseEnvelope, browseOptions } from './browse.ts';
import { includeParam, withIncludes } from './include.ts';
import { PAGE_NOT_FOUND, registerExtraRoutes } from './extras.ts';
import { registerContactPointRoutes } from './contact-points.ts';
import { registerRelationshipRoutes } from './person-relationships.ts';
import { registerNoteRoutes } from './notes.ts';
import { registerMappingRoutes } from './mappings.ts';
import { browseCsv, RawReply, registerCsvRoutes, wantsCsv } from './csv.ts';
import { registerFieldsRoutes } from './fields-route.ts';

import type { Handler, Route } from './handler.ts';
import { isDatabaseUnavailable, UNAVAILABLE_RETRY_AFTER_S } from '../../src/db/unavailable.ts';
import { isTextTheDatabaseRefused, REFUSED_TEXT_MESSAGE } from '../../src/db/refused-text.ts';

export type { Handler, Route };

// Exported for the media routes (media.ts), which answer files but fail the same way.
export function sendCampusError(res: ServerResponse, err: unknown, log: Logger) {
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
  if (isDatabaseUnavailable(err)) {
    log.warn({ err }, 'campus request refused: database unavailable');
    return sendJson(res, 503, { success: false, message: 'database unavailable, try again shortly' }, { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_S) });
  }
  if (isTextTheDatabaseRefused(err)) {
    log.warn({ err }, 'campus request refused: text the database cannot store');
    return sendJson(res, 400, { success: false, message: REFUSED_TEXT_MESSAGE });
  }
  log.error({ err }, 'unexpected error in campus handler');
  return sendJson(res, 500, { success: false, message: 'internal server error' });
}

/** /save and /destroy take `{"data": [...]}` of at most MAX_LIST_ITEMS items (Slate's 400 otherwise). */
function batch(fields: Record<string, unknown>, message: string): unknown[] {
  if (!Array.isArray(fields.data)) throw new HttpError(400, message);
  if (fields.data.length > MAX_LIST_ITEMS) throw new HttpError(400, `Too many items in "data": at most ${MAX_LIST_ITEMS}`);
  return fields.data;
}

/**
 * Slate reads a `json` (or `csv`, `pdf`) segment after a records prefix as the response mode:
 * `/people/json/jdoe` is `/people/jdoe` answered in JSON. Every answer here is JSON, so the
 * `json` form of each records path is the same route. (So no record is named `json`, as in Slate.)
 */
function jsonModePath(path: string): string | null {
  const [, prefix, rest] = /^\/([^/]+)(\/.*)?$/.exec(path) ?? [];
  return prefix && RECORD_PREFIXES.has(prefix) ? `/${prefix}/json${rest ?? ''}` : null;
}
const RECORD_PREFIXES = new Set(KIND_LIST.map((kind) => kind.prefix));

/** An item of /save or /destroy that failed: Slate's "Write access denied" where the caller may not write it. */
function itemError(err: Error): string {
  const denied = err instanceof DomainError && (err.code === 'FORBIDDEN' || err.code === 'UNAUTHENTICATED');
  return denied ? 'Write access denied' : err.message;
}

export function registerCampusRoutes(router: Router.Instance<Router.HTTPVersion.V1>, deps: CampusDeps, log: Logger) {
  function route(methods: Array<'GET' | 'POST'>, path: string, handler: Handler) {
    const serve: Router.Handler<Router.HTTPVersion.V1> = async (req, res, params) => {
      const query = new URL(req.url ?? '/', 'http://localhost').searchParams;
      try {
        // An unknown or ended token is anonymous, as Slate starts a fresh session for it.
        const viewer = await viewerOrAnonymous(deps.db, await sessionToken(req, query));
        const body = await handler({ req, query, viewer, params });
        // CSV exports (csv.ts) carry their own type and headers.
        if (body instanceof RawReply) body.send(res);
        else sendJson(res, 200, body);
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
    };
    router.on(methods, path, serve);
    const twin = jsonModePath(path);
    if (twin) router.on(methods, twin, serve);
  }

  // Slate's site-root/users.php: /users/… redirects to the same path and query under /people.
  const toPeople: Router.Handler<Router.HTTPVersion.V1> = (req, res) => {
    res.writeHead(302, { Location: `/people${(req.url ?? '/users').slice('/users'.length)}`, 'Content-Length': 0 });
    res.end();
  };
  router.on(['GET', 'POST'], '/users', toPeople);
  router.on(['GET', 'POST'], '/users/*', toPeople);

  for (const kind of KIND_LIST) {
    const base = `/${kind.prefix}`;
    // A record's own routes (`/<prefix>/<h>…`). Slate's people handler answers a Disabled
    // person's with 404 "profile not found", sub-routes included; /save by ID still reaches
    // them (Staff re-enable a person there, or over GraphQL).
    const recordRoute: Route = (methods, path, handler) =>
      route(methods, path, async (ctx) => {
        if (kind.name === 'Person') await records.requireActiveProfile(deps, ctx.params.ident!);
        return handler(ctx);
      });
    const one = async (viewer: Viewer, record: CampusRecord, query: URLSearchParams) =>
      (await withIncludes(deps, viewer, kind, [record], includeParam(query)))[0];

    // Browse and read answer POST as GET: Slate's handler dispatches on the path, not the method
    // (a form can carry its _session this way).
    route(['GET', 'POST'], base, async ({ req, query, viewer }) => {
      // Slate's CSV response mode (format=csv, Accept: text/csv): the same browse as rows.
      if (wantsCsv(req, query)) return browseCsv(deps, viewer, kind, query);
      const result = await records.browseRecords(deps, viewer, kind, browseOptions(kind, query));
      return browseEnvelope(result, await withIncludes(deps, viewer, kind, result.records, includeParam(query)), query, viewer);
    });

    // Slate's form steps for a JSON client: the empty or current record, `success: false`.
    route(['GET'], `${base}/create`, async ({ viewer }) => ({ success: false, data: templateJson(kind, records.recordTemplate(viewer, kind), viewer) }));

    recordRoute(['GET'], `${base}/:ident/edit`, async ({ query, viewer, params }) => {
      const record = await records.editableRecord(deps, viewer, kind, params.ident!);
      return { success: false, data: await one(viewer, record, query) };
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
      // An item naming a record that does not exist stops the request with 404, as in Slate;
      // it is found before anything is saved, so nothing is (Slate keeps the items before it).
      // The request is one transaction: a server fault in any item saves none (decisions.md).
      const outcomes = await records.saveRecords(deps, viewer, kind, items as Array<Record<string, unknown>>);
      const saved: unknown[] = [];
      const failed: unknown[] = [];
      outcomes.forEach((o, i) => {
        if (o.record) saved.push(recordJson(kind, o.record, viewer));
        else if (o.error instanceof RecordValidationError) failed.push({ record: items[i], validationErrors: o.error.fields });
        else failed.push({ record: items[i], errors: itemError(o.error) });
      });
      const first = failed[0] as { validationErrors?: Record<string, string>; errors?: string } | undefined;
      const message = first ? (first.errors ?? Object.values(first.validationErrors ?? {})[0] ?? null) : null;
      return { success: saved.length > 0 || failed.length === 0, data: saved, failed, message };
    });

    route(['POST'], `${base}/destroy`, async ({ req, viewer }) => {
      const fields = await readFields(req);
      const items = batch(fields, 'Handler expects "data" field as array');
      // As in PHP: an object's ID, or the item itself; a list has no ID.
      const idOf = (item: unknown) => (typeof item === 'object' && item !== null && !Array.isArray(item) ? (item as { ID?: unknown }).ID : item);
      const named = (id: unknown): id is string | number => (typeof id === 'string' || typeof id === 'number') && id !== '';
      // One transaction for the request: a server fault in any item deletes none.
      const outcomes = await records.deleteRecords(deps, viewer, kind, items.map(idOf).filter(named).map(String));
      const deleted: unknown[] = [];
      const failed: unknown[] = [];
      let next = 0;
      for (const item of items) {
        if (!named(idOf(item))) {
          failed.push({ record: item, errors: 'ID missing' });
          continue;
        }
        const o = outcomes[next++]!;
        if (o.record) deleted.push(recordJson(kind, o.record, viewer));
        else failed.push({ record: item, errors: o.error.code === 'NOT_FOUND' ? 'ID not found' : itemError(o.error) });
      }
      return { success: failed.length === 0, data: deleted, failed };
    });

    recordRoute(['GET', 'POST'], `${base}/:ident`, async ({ query, viewer, params }) => {
      const record = await records.getRecord(deps, viewer, kind, params.ident!);
      return { success: true, data: await one(viewer, record, query) };
    });

    recordRoute(['POST'], `${base}/:ident/edit`, async ({ req, query, viewer, params }) => {
      const fields = await readFields(req);
      const record = await records.editRecord(deps, viewer, kind, params.ident!, fields);
      return { success: true, data: await one(viewer, record, query) };
    });

    // Slate: a comment is posted; any other method is a bad request.
    recordRoute(['GET'], `${base}/:ident/comment`, async () => {
      throw new HttpError(400, 'You did not supply the needed parameters correctly');
    });

    recordRoute(['POST'], `${base}/:ident/comment`, async ({ req, viewer, params }) => {
      const fields = await readFields(req);
      const comment = await addComment(deps, viewer, kind, params.ident!, fields.Message);
      return { success: true, data: linkJson(comment) };
    });

    recordRoute(['GET', 'POST'], `${base}/:ident/delete`, async ({ req, query, viewer, params }) => {
      if (req.method === 'GET') {
        // Slate's confirmation step, after its write check: nothing is deleted by a GET.
        const record = await records.editableRecord(deps, viewer, kind, params.ident!);
        return { question: `Are you sure you want to delete this ${kind.noun}?`, data: recordJson(kind, record, viewer) };
      }
      const record = await records.deleteRecord(deps, viewer, kind, params.ident!);
      return { success: true, data: recordJson(kind, record, viewer) };
    });

    // Another segment after a record (Slate: onRecordRequestNotHandled): the record must
    // exist and be readable, then the page does not; an empty segment is the record itself.
    recordRoute(['GET', 'POST'], `${base}/:ident/*`, async ({ query, viewer, params }) => {
      const record = await records.getRecord(deps, viewer, kind, params.ident!);
      if (params['*'] !== '') throw notFound(PAGE_NOT_FOUND);
      return { success: true, data: await one(viewer, record, query) };
    });
  }

  registerExtraRoutes(route, deps);
  registerContactPointRoutes(route, deps);
  registerRelationshipRoutes(route, deps);
  registerNoteRoutes(route, deps);
  registerMappingRoutes(route, deps);
  registerCsvRoutes(route, deps, KIND_LIST);
  registerFieldsRoutes(route, KIND_LIST);
}
