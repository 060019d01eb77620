// Holds a real response to the OpenAPI document: the operation must declare the status, the
// media type must be declared for it, and the body must match the declared schema (ajv, JSON
// Schema 2020-12, the dialect of OpenAPI 3.1; $refs resolve inside the whole document).
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { ApiResponse } from '../helpers/world.ts';

type Doc = { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>> };

const DOC_ID = 'https://openapi.test/openapi.json';
/** One JSON Pointer segment inside a URI fragment. */
const segment = (s: string) => encodeURIComponent(s.replace(/~/g, '~0').replace(/\//g, '~1'));

export function responseChecker(doc: Record<string, unknown>) {
  // strict off: the document's own keys (openapi, paths, ...) are not schema keywords.
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  // A CommonJS module: its default export is the plugin under either interop.
  addFormats.default(ajv);
  ajv.addSchema({ ...doc, $id: DOC_ID });
  const compiled = new Map<string, ValidateFunction>();
  const checked = new Set<string>();

  /** Fails with the operation, status and ajv's errors when `res` is not what the document says. */
  function check(path: string, method: string, res: ApiResponse): void {
    const where = `${method.toUpperCase()} ${path} → ${res.status}`;
    const op = (doc as unknown as Doc).paths[path]?.[method.toLowerCase()];
    if (!op) throw new Error(`${where}: the document has no such operation`);
    const declared = op.responses[String(res.status)];
    if (!declared) throw new Error(`${where}: status not declared (declared: ${Object.keys(op.responses).join(', ')}); body: ${res.text.slice(0, 300)}`);
    checked.add(`${method.toUpperCase()} ${path} ${res.status}`);
    const mediaType = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
    if (!declared.content) {
      if (res.text !== '') throw new Error(`${where}: declared without a body, got ${mediaType}: ${res.text.slice(0, 200)}`);
      return;
    }
    if (!declared.content[mediaType]) throw new Error(`${where}: media type ${mediaType} not declared (declared: ${Object.keys(declared.content).join(', ')})`);
    const pointer = ['paths', path, method.toLowerCase(), 'responses', String(res.status), 'content', mediaType, 'schema'].map(segment).join('/');
    let validate = compiled.get(pointer);
    if (!validate) {
      validate = ajv.compile({ $ref: `${DOC_ID}#/${pointer}` });
      compiled.set(pointer, validate);
    }
    const body = mediaType === 'application/json' ? res.json : res.text;
    if (!validate(body)) {
      throw new Error(`${where}: body does not match the declared schema:\n${ajv.errorsText(validate.errors, { separator: '\n' })}\nbody: ${res.text.slice(0, 600)}`);
    }
  }

  return { check, checked };
}
