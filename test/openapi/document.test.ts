// The OpenAPI description is a valid OpenAPI 3.1 document (checked by
// @seriousme/openapi-schema-validator), it is served at /api/openapi.json with the API's CORS
// answers, and its paths are the routes the server has.
import { describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { openapiDocument } from '../../src/openapi/document.ts';
import { KIND_LIST } from '../../src/campus/kinds.ts';
import { useWorld } from '../helpers/fixtures.ts';

const w = useWorld();

describe('the OpenAPI document', () => {
  it('validates as OpenAPI 3.1', async () => {
    const validator = new Validator();
    const result = await validator.validate(openapiDocument('https://hc.example.org'));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('describes every API version, the ping paths and every campus kind', () => {
    const paths = Object.keys(openapiDocument('https://hc.example.org').paths as object);
    for (const v of [1, 2, 3]) {
      for (const p of ['checks/', 'checks/{check}', 'checks/{uuid}/pause', 'checks/{uuid}/resume', 'checks/{uuid}/pings/', 'checks/{uuid}/pings/{n}/body', 'checks/{check}/flips/', 'channels/', 'badges/', 'status/']) {
        expect(paths).toContain(`/api/v${v}/${p}`);
      }
    }
    expect(paths).toEqual(expect.arrayContaining(['/ping/{uuid}', '/ping/{uuid}/start', '/ping/{uuid}/fail', '/ping/{uuid}/log', '/ping/{key}/{slug}', '/b/{states}/{file}', '/login']));
    for (const kind of KIND_LIST) expect(paths).toEqual(expect.arrayContaining([`/${kind.prefix}`, `/${kind.prefix}/{ident}`, `/${kind.prefix}/create`, `/${kind.prefix}/save`]));
    // OpenAPI forbids two templated paths of the same shape (they would be the same path).
    const shapes = paths.map((p) => p.replace(/\{[^}]+\}/g, '{}'));
    expect(shapes.filter((s, i) => shapes.indexOf(s) !== i)).toEqual([]);
  });

  it('is served at /api/openapi.json with the servers from SITE_ROOT, cacheable, with CORS', async () => {
    const res = await fetch(`${w.url}/api/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const doc = await res.json();
    expect(doc.openapi).toBe('3.1.1');
    expect(doc.servers).toEqual([{ url: w.url, description: 'SITE_ROOT' }]);
    expect(doc).toEqual(openapiDocument(w.url));

    const preflight = await fetch(`${w.url}/api/openapi.json`, { method: 'OPTIONS' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, OPTIONS');
    expect((await fetch(`${w.url}/api/openapi.json`, { method: 'POST' })).status).toBe(405);
  });
});
