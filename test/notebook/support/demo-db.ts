import { join } from 'node:path';
import { ServiceClient } from '../../../src/api/index.js';
import { pullFiles } from '../../../src/files/index.js';
import { startSim } from '../../../src/sim/index.js';
import { openStore } from '../../../src/store/index.js';
import { ROOT, tempDir } from '../../support/cli.js';
import { runInProcess } from '../../support/in-process-cli.js';

/** A database made by real simulator batches, and where its files are. */
export interface DemoDb {
  dir: string;
  db: string;
  out: string;
}

/**
 * Runs the demo pipeline and a `descriptors` models batch (notebooks/molecules.csv) through
 * the real CLI against one simulator, then makes sure every file is on disk.
 */
export async function makeDemoDb(): Promise<DemoDb> {
  const sim = await startSim({ defaultDurationMs: 20 });
  const dir = tempDir('resq-notebook-');
  const db = join(dir, 'resq.db');
  const out = join(dir, 'files');
  const env = { RESQ_API_KEY: sim.keys[0] ?? '' };
  try {
    const run = await runInProcess(['run', join(ROOT, 'pipelines/demo.yaml'), '--base-url', sim.url, '--db', db, '--out', out, '--json'], env);
    // The demo fails one item and holds one on purpose.
    if (run.code !== 1) throw new Error(`demo run exited ${run.code}: ${run.stderr}`);
    const models = await runInProcess(
      ['models', 'batch', 'descriptors', join(ROOT, 'notebooks/molecules.csv'), '--base-url', sim.url, '--db', db, '--out', out, '--json', '--output', join(dir, 'molecules.jsonl')],
      env,
    );
    if (models.code !== 1) throw new Error(`models batch exited ${models.code}: ${models.stderr}`);
    const store = await openStore(db);
    const client = new ServiceClient({ baseUrl: sim.url, apiKey: sim.keys[0] ?? '', retry: { baseDelayMs: 5, maxDelayMs: 50 } });
    try {
      // Downloads the run may have left pending, while this simulator still serves them.
      await pullFiles({ store, client, batches: await store.listBatches(), outDir: out });
    } finally {
      await client.close();
      await store.close();
    }
  } finally {
    await sim.close();
  }
  return { dir, db, out };
}

/** A database holding one agent batch with no items (the CLI refuses an empty question set; the store does not). */
export async function emptyBatchDb(name = 'empty'): Promise<string> {
  const db = join(tempDir('resq-notebook-empty-'), 'resq.db');
  const store = await openStore(db);
  const loader = await store.beginBatchLoad({
    id: `id-${name}`,
    name,
    kind: 'runs',
    sourcePath: '/questions.csv',
    sourceSha256: 'none',
    baseUrl: null,
    settings: { concurrency: 1, follow: 'sse', download: { enabled: false, concurrency: 1, out: null }, pipelineFile: null, service: 'sim' },
    policy: null,
  });
  await loader.commit([]);
  await store.close();
  return db;
}
