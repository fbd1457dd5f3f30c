import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import LongestFirstSequencer from './test/support/sequencer.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/bench/**', 'node_modules/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // A worker process runs file after file instead of one process per file: 336 process
    // starts, each with vitest's runner and the modules a file imports, were ~140 of the
    // suite's ~870 CPU-seconds. Files then share a process's module state, so a test restores
    // what it changes of the process (environment variables, timers, listeners).
    isolate: false,
    // Files side by side: most of a file's time is spent waiting on child processes, servers
    // and streams, so a 2-core machine runs three at once (vitest's default would be one).
    maxWorkers: Math.max(3, availableParallelism()),
    // The longest files first, on a fresh clone too (test/support/sequencer.ts).
    sequence: { sequencer: LongestFirstSequencer },
    // One PostgreSQL server for the run, shared by the files that only need databases on it.
    globalSetup: ['test/support/pg-global-setup.ts'],
  },
});
