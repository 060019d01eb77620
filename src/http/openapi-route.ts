// GET /api/openapi.json: the REST APIs' description (src/openapi/), with the API's CORS answers
// (OPTIONS 204, other methods 405). Built per SITE_ROOT at the first request and kept.
import type { HttpRouter } from './router.ts';
import { sendEmpty, sendJson } from './respond.ts';
import { corsHeaders } from '../../rest-compat/healthchecks/cors.ts';
import { OPENAPI_PATH, openapiDocument } from '../openapi/document.ts';

const cors = corsHeaders(['GET']);

export function registerOpenApiRoute(router: HttpRouter, settings: { siteRoot: string }) {
  let cached: { siteRoot: string; doc: Record<string, unknown> } | null = null;
  router.all(OPENAPI_PATH, (req, res) => {
    if (req.method === 'OPTIONS') return sendEmpty(res, 204, cors);
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendEmpty(res, 405, cors);
    // Tests repoint siteRoot after start: build for the value of the moment.
    if (cached?.siteRoot !== settings.siteRoot) cached = { siteRoot: settings.siteRoot, doc: openapiDocument(settings.siteRoot) };
    sendJson(res, 200, cached.doc, { ...cors, 'Cache-Control': 'public, max-age=300' });
  });
}
