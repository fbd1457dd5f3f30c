import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/bench/**', 'node_modules/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Files side by side: most of a file's time is spent waiting on child processes, servers
    // and streams, so a 2-core machine runs three at once (vitest's default would be one).
    maxWorkers: Math.max(3, availableParallelism()),
    // One PostgreSQL server for the run, shared by the files that only need databases on it.
    globalSetup: ['test/support/pg-global-setup.ts'],
  },
});
