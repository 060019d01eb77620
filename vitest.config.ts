import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // graphql ships CommonJS and ESM builds; Node (and so Pothos and yoga) loads the CommonJS
    // one. Vite would pick the ESM one for our sources, giving two copies of every class.
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    include: ['test/**/*.test.ts'],
    // Each test file gets its own SQLite database file; files run in worker processes (Vitest
    // starts cores - 1 of them: one on the project's 2-core machines).
    pool: 'forks',
    // One module graph per worker, not per file: importing the server (Prisma, Pothos, yoga)
    // took about 2 s for every file that builds a world, over half of a CI pass on two cores.
    // Every file still builds its own worlds (servers, databases); none relies on fresh modules.
    isolate: false,
    // Marks the files the PostgreSQL pass runs again (scripts/test.mjs).
    setupFiles: ['test/helpers/database-pass.ts'],
    // The subscription leak test measures the heap after a forced collection.
    execArgv: ['--expose-gc'],
    testTimeout: 20000,
    hookTimeout: 30000,
  },
});
