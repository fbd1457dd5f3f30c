// Entry of the question reader thread (src/tables/row-batches.ts) in a checkout. Worker
// threads do not inherit the main thread's resolve hook: this one registers its own
// (src/run-sources.mjs) and then loads the TypeScript module, whose types Node strips.
import '../run-sources.mjs';

await import('./row-batch-worker.ts');
