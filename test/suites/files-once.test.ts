import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim } from '../../src/sim/index.js';
import { collect, runCliChild, spawnCli, tempDir } from '../support/cli.js';
import { startPgServer, type PgServer } from '../support/pg-server.js';

// Issue 38.3: one download per file, whichever worker. Three real worker processes on one
// batch, each with its own --out folder; the simulator counts every file body it serves.
describe('three workers with out folders of their own fetch each file once', () => {
  let pg: PgServer;
  beforeAll(async () => {
    pg = await startPgServer();
  }, 120_000);
  afterAll(async () => pg?.stop());

  async function threeWorkers(db: (dir: string) => Promise<string>): Promise<void> {
    const sim = await startSim({ defaultDurationMs: 50, seed: 7 });
    try {
      const dir = tempDir();
      const questions = join(dir, 'files.csv');
      const rows = Array.from({ length: 24 }, (_, i) => `q${i},"Question ${i} @duration=${50 + (i % 4) * 40}ms @files=md,csv,svg"`);
      writeFileSync(questions, `id,question\n${rows.join('\n')}\n`);
      const url = await db(dir);
      const env = { RESQ_API_KEY: 'sim-key-bob' };
      const load = await runCliChild(['run', questions, '--db', url, '--batch', 'shared', '--base-url', sim.url, '--concurrency', '6', '--dry-run'], env);
      expect(load.code, load.stderr).toBe(0);
      const done = await Promise.all(['a', 'b', 'c'].map((o) => collect(spawnCli(['resume', 'shared', '--db', url, '--out', join(dir, `out-${o}`), '--json'], env))));
      for (const r of done) expect(r.stderr).not.toMatch(/internal error|^\s+at /m);
      // A worker that ended while another still held a file: `files pull` finds nothing left.
      const pull = await runCliChild(['files', 'pull', 'shared', '--db', url, '--out', join(dir, 'out-a'), '--base-url', sim.url], env);
      expect(pull.code, pull.stderr + pull.stdout).toBe(0);
      const fetched = sim.counters().fileFetches;
      const ids = Object.keys(fetched);
      expect(ids).toHaveLength(72);
      const twice = ids.filter((id) => fetched[id] !== 1);
      expect(twice, `fetched more than once: ${twice.map((id) => `${id} ×${fetched[id]}`).join(', ')}`).toEqual([]);
    } finally {
      await sim.close();
    }
  }

  it('on PostgreSQL: every one of 72 files fetched exactly once (the simulator\'s own count)', async () => {
    await threeWorkers(() => pg.createDatabase('files_once'));
  }, 240_000);

  it('on SQLite: every one of 72 files fetched exactly once (the simulator\'s own count)', async () => {
    await threeWorkers(async (dir) => join(dir, 'resq.db'));
  }, 240_000);
});
