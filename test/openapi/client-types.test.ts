// Types generated from the document with openapi-typescript compile a small typed client under
// strict TypeScript: the shapes a client of /api/v3/ and the campus paths relies on are there,
// with the names and types the server answers with (the contract test holds those to the server).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ts from 'typescript';
import openapiTS, { astToString } from 'openapi-typescript';
import { openapiDocument } from '../../src/openapi/document.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'openapi-client-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CLIENT = `
import type { paths, components } from './api.d.ts';

type Json<P extends keyof paths, M extends keyof paths[P], S extends number> =
  paths[P][M] extends { responses: { [K in S]: { content: { 'application/json': infer T } } } } ? T : never;

type CheckList = Json<'/api/v3/checks/', 'get', 200>;
type Check = components['schemas']['Check'];
type CheckSpec = NonNullable<paths['/api/v3/checks/']['post']['requestBody']>['content']['application/json'];

export async function listChecks(base: string, key: string): Promise<CheckList> {
  const res = await fetch(base + '/api/v3/checks/', { headers: { 'X-Api-Key': key } });
  return (await res.json()) as CheckList;
}

export function describeCheck(check: Check): string {
  const status: 'new' | 'up' | 'grace' | 'down' | 'paused' = check.status;
  const id: string = check.uuid ?? check.unique_key ?? '';
  const next: string | null = check.next_ping;
  const every: number | undefined = check.timeout;
  return \`\${check.name} \${status} \${id} \${next ?? '-'} \${every ?? check.schedule}\`;
}

export const spec: CheckSpec = { name: 'Backups', timeout: 3600, grace: 60, unique: ['name'], methods: 'POST' };

type Pings = paths['/api/v3/checks/{uuid}/pings/']['get']['responses'][200]['content']['application/json'];
export const firstPingDate = (p: Pings): string | undefined => p.pings[0]?.date;

type FlipsV2 = Json<'/api/v2/checks/{check}/flips/', 'get', 200>;
export const upFlips = (f: FlipsV2): number => f.filter((x) => x.up === 1).length;

type Created = paths['/people/create']['post']['responses'][200]['content']['application/json'];
type Session = Json<'/login', 'post', 200>;
export const token = (s: Session): string => s.data.Handle;
export const personName = (r: Created): string | null => ('data' in r && r.success === true ? r.data.FirstName : null);

type ApiError = Json<'/api/v3/checks/{check}', 'get', 404>;
export const reason = (e: ApiError): string => e.error;
`;

const WRONG = "import type { components } from './api.d.ts';\nexport const x = (c: components['schemas']['Check']) => c.last_pinged;\n";

/** Generates the types, writes both clients and type-checks them in one program (diagnostics by file). */
async function compile(): Promise<{ types: string; diagnostics: Map<string, string[]> }> {
  const types = astToString(await openapiTS(openapiDocument('https://hc.example.org') as unknown as Parameters<typeof openapiTS>[0]));
  writeFileSync(path.join(dir, 'api.d.ts'), types);
  writeFileSync(path.join(dir, 'client.ts'), CLIENT);
  writeFileSync(path.join(dir, 'wrong.ts'), WRONG);
  const program = ts.createProgram(['client.ts', 'wrong.ts'].map((f) => path.join(dir, f)), {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    allowImportingTsExtensions: true,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: [],
    // The generated api.d.ts is checked; TypeScript's own lib files are not (time).
    skipDefaultLibCheck: true,
  });
  const diagnostics = new Map<string, string[]>();
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const file = d.file ? path.basename(d.file.fileName) : '(global)';
    diagnostics.set(file, [...(diagnostics.get(file) ?? []), ts.flattenDiagnosticMessageText(d.messageText, '\n')]);
  }
  return { types, diagnostics };
}

describe('types generated with openapi-typescript', () => {
  let result: Awaited<ReturnType<typeof compile>>;
  beforeAll(async () => {
    result = await compile();
  }, 60_000);

  it('compile a small typed client under strict TypeScript', () => {
    expect(result.types).toContain('"/api/v3/checks/": {');
    const { diagnostics } = result;
    expect([...diagnostics].filter(([file]) => file !== 'wrong.ts')).toEqual([]);
  });

  it('reject a client that reads a key the server does not send', () => {
    expect(result.diagnostics.get('wrong.ts')?.join('\n')).toMatch(/Property 'last_pinged' does not exist/);
  });
});
