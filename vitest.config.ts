import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Each test file gets its own SQLite database file; files run in parallel workers.
    pool: 'forks',
    testTimeout: 20000,
    hookTimeout: 30000,
  },
});
