// Prisma's schema engine compiled to WebAssembly: applies migrations with no native engine
// download (see ../shared/STACK-NOTES.md). The package's entry imports the .wasm file as an
// ES module, which Node 20 refuses, so we instantiate the module by hand.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import * as bg from '@prisma/schema-engine-wasm/schema_engine_bg';

type SchemaEngine = Awaited<ReturnType<typeof bg.SchemaEngine.new>>;

let ready: Promise<void> | undefined;

function initWasm(): Promise<void> {
  ready ??= (async () => {
    // The package exports neither the .wasm nor package.json: locate it beside the glue module.
    const require = createRequire(import.meta.url);
    const wasmPath = path.join(
      path.dirname(require.resolve('@prisma/schema-engine-wasm/schema_engine_bg')),
      'schema_engine_bg.wasm',
    );
    const module = await WebAssembly.compile(await readFile(wasmPath));
    // The wasm module imports its glue functions from "./schema_engine_bg.js": hand it the
    // module's own exports under every import namespace it asks for.
    const imports: WebAssembly.Imports = {};
    for (const { module: name } of WebAssembly.Module.imports(module)) {
      imports[name] = bg as unknown as WebAssembly.ModuleImports;
    }
    const instance = await WebAssembly.instantiate(module, imports);
    bg.__wbg_set_wasm(instance.exports);
    (instance.exports as { __wbindgen_start?: () => void }).__wbindgen_start?.();
  })();
  return ready;
}

export async function openSchemaEngine(
  schemaPath: string,
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
): Promise<SchemaEngine> {
  await initWasm();
  const schemaText = await readFile(schemaPath, 'utf8');
  return bg.SchemaEngine.new(
    { datamodels: [[schemaPath, schemaText]] },
    () => {},
    bindMigrationAwareSqlAdapterFactory(adapterFactory),
  );
}

export const noFilters = { externalTables: [], externalEnums: [] };
