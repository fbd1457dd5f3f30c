import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/bench/**', 'node_modules/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One PostgreSQL server for the run, shared by the files that only need databases on it.
    globalSetup: ['test/support/pg-global-setup.ts'],
  },
});
