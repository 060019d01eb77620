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

export interface OpenEngine {
  engine: SchemaEngine;
  /** Frees the engine and closes every connection it opened (SQLite locks go with them). */
  close(): Promise<void>;
}

export async function openSchemaEngine(
  schemaPath: string,
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
): Promise<OpenEngine> {
  await initWasm();
  const schemaText = await readFile(schemaPath, 'utf8');
  // The engine never closes its connections: track them so close() can.
  const opened: Array<{ dispose(): Promise<void> }> = [];
  const tracking: SqlMigrationAwareDriverAdapterFactory = {
    provider: adapterFactory.provider,
    adapterName: adapterFactory.adapterName,
    async connect() {
      const adapter = await adapterFactory.connect();
      opened.push(adapter);
      return adapter;
    },
    async connectToShadowDb() {
      const adapter = await adapterFactory.connectToShadowDb();
      opened.push(adapter);
      return adapter;
    },
  };
  const engine = await bg.SchemaEngine.new(
    { datamodels: [[schemaPath, schemaText]] },
    () => {},
    bindMigrationAwareSqlAdapterFactory(tracking),
  );
  return {
    engine,
    async close() {
      (engine as unknown as { free?: () => void }).free?.();
      await Promise.all(opened.splice(0).map((a) => a.dispose()));
    },
  };
}

/**
 * Tables the migrations create in raw SQL that Prisma does not model: the campus search index
 * (an FTS5 virtual table and the shadow tables SQLite keeps for it). Listed as external so a
 * schema diff leaves them alone instead of writing DROP TABLE for each.
 */
export const RAW_SQL_TABLES = ['CampusSearch', ...['config', 'content', 'data', 'docsize', 'idx'].map((t) => `CampusSearch_${t}`)];

export const schemaFilters = { externalTables: RAW_SQL_TABLES, externalEnums: [] };

/** PostgreSQL's search index lives on the modelled tables (pg_trgm): nothing is external. */
export const filtersFor = (provider: 'sqlite' | 'postgresql') =>
  provider === 'sqlite' ? schemaFilters : { externalTables: [] as string[], externalEnums: [] as string[] };
