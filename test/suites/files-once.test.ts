import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim } from '../../src/sim/index.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { collect, runCliChild, spawnCli, tempDir } from '../support/cli.js';
import { sharedPgServer, type SharedPg } from '../support/pg-shared.js';

/** Files under `dir` (recursive; none when it was never made), temporary ones aside. */
const filesUnder = (dir: string): string[] =>
  !existsSync(dir) ? [] : (readdirSync(dir, { recursive: true, withFileTypes: true }) as { name: string; parentPath: string; isFile(): boolean }[])
    .filter((e) => e.isFile() && !e.name.endsWith('.partial'))
    .map((e) => join(e.parentPath, e.name));

// Issue 38.3: one download per file, whichever worker. Three real worker processes on one
// batch, each with its own --out folder; the simulator counts every file body it serves.
describe('three workers with out folders of their own fetch each file once', () => {
  let pg: SharedPg;
  beforeAll(async () => {
    pg = await sharedPgServer();
  }, 120_000);
  afterAll(async () => pg?.stop());

  async function threeWorkers(db: (dir: string) => Promise<string>): Promise<void> {
    const sim = await startSim({ defaultDurationMs: 50, seed: 7 });
    try {
      const dir = tempDir();
      const questions = join(dir, 'files.csv');
      const rows = Array.from({ length: 24 }, (_, i) => `q${i},"Question ${i} @duration=${400 + (i % 4) * 100}ms @files=md,csv,svg"`);
      writeFileSync(questions, `id,question\n${rows.join('\n')}\n`);
      const url = await db(dir);
      const env = { RESQ_API_KEY: 'sim-key-bob' };
      const load = await runCliChild(['run', questions, '--db', url, '--batch', 'shared', '--base-url', sim.url, '--concurrency', '6', '--dry-run'], env);
      expect(load.code, load.stderr).toBe(0);
      const outs = ['a', 'b', 'c'].map((o) => join(dir, `out-${o}`));
      const done = await Promise.all(outs.map((out) => collect(spawnCli(['resume', 'shared', '--db', url, '--out', out, '--json'], env))));
      for (const r of done) expect(r.stderr).not.toMatch(/internal error|^\s+at /m);
      // A worker that ended while another still held a file: `files pull` finds nothing left.
      const pull = await runCliChild(['files', 'pull', 'shared', '--db', url, '--out', outs[0]!, '--base-url', sim.url], env);
      expect(pull.code, pull.stderr + pull.stdout).toBe(0);
      const fetched = sim.counters().fileFetches;
      const ids = Object.keys(fetched);
      expect(ids).toHaveLength(72);
      const twice = ids.filter((id) => fetched[id] !== 1);
      expect(twice, `fetched more than once: ${twice.map((id) => `${id} ×${fetched[id]}`).join(', ')}`).toEqual([]);
      // Every file on the three disks is the one recorded: none lies there untracked.
      const status = await runCliChild(['files', 'status', 'shared', '--db', url, '--json'], env);
      expect(JSON.parse(status.stdout)).toMatchObject({ counts: { downloaded: 72 }, hosts: { [hostname()]: 72 } });
      expect(outs.flatMap((o) => filesUnder(o))).toHaveLength(72);
      // The workers shared the batch (runs long enough that one alone could not finish it before
      // the others started): at least two of them downloaded, so their claims had rivals.
      const downloaders = outs.filter((o) => filesUnder(o).length > 0);
      expect(downloaders.length, `files per out folder: ${outs.map((o) => filesUnder(o).length).join(', ')}`).toBeGreaterThanOrEqual(2);
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

  it('a worker killed -9 mid-download: the resume takes its file claim over at once (its lease still running) and fetches the file, a second body in all', async () => {
    const sim = await startSim({ defaultDurationMs: 50, seed: 7 });
    try {
      const dir = tempDir();
      const questions = join(dir, 'big.csv');
      writeFileSync(questions, 'id,question\nbig,"A large table @files=csv @size=256mb"\n');
      const db = join(dir, 'resq.db');
      const out = join(dir, 'out');
      const env = { RESQ_API_KEY: 'sim-key-bob' };
      const child = spawnCli(['run', questions, '--db', db, '--batch', 'big', '--base-url', sim.url, '--out', out, '--json'], env);
      const ended = collect(child);
      let partial: string | undefined;
      for (let i = 0; i < 1200 && !partial && child.exitCode === null; i++) {
        await new Promise((r) => setTimeout(r, 25));
        if (existsSync(out)) partial = (readdirSync(out, { recursive: true }) as string[]).find((p) => p.endsWith('.partial') && statSync(join(out, p)).size > 1024 * 1024);
      }
      expect(partial, 'the worker never started writing the file').toBeDefined();
      child.kill('SIGKILL');
      expect((await ended).signal).toBe('SIGKILL');

      // Killed mid-body: the file is pending, its claim still the dead worker's, its lease running a minute yet.
      const store = SqliteStore.open(db);
      const batch = (await store.findBatch('big'))!;
      const [file] = await store.filesForBatch(batch.id);
      const held = (await store.fileClaimHolder(batch.id, file!.id))!;
      const leaseEnds = store.db.prepare('SELECT claim_until FROM files WHERE id = ?').pluck().get(file!.id) as number;
      await store.close();
      expect(file!.status).toBe('pending');
      expect(held).toMatchObject({ host: hostname(), pid: child.pid });

      const resume = await runCliChild(['resume', 'big', '--db', db, '--out', out, '--json'], env);
      const resumedBy = Date.now();
      expect(resume.code, resume.stderr).toBe(0);
      // Finished before the dead worker's lease would have let anyone take the file.
      expect(resumedBy).toBeLessThan(leaseEnds);
      const after = SqliteStore.open(db);
      try {
        expect(await after.getFile(batch.id, file!.id)).toMatchObject({ status: 'downloaded', bytes: 256 * 1024 * 1024 });
      } finally {
        await after.close();
      }
      expect(sim.counters().fileFetches).toEqual({ [file!.id]: 2 });
      expect(filesUnder(out)).toHaveLength(1);
    } finally {
      await sim.close();
    }
  }, 240_000);
});
