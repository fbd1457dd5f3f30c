import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type Sim } from '../../src/sim/index.js';
import { exportRows, type ExportRow } from '../../src/runner/index.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { readItemView } from '../../src/read/item-view.js';
import { runDurations } from '../../src/notebook/charts.js';
import { collect, runCliChild, spawnCli, tempDir } from '../support/cli.js';

const ITEMS = 4;

/** A batch of runs of 1.5 s, its CLI killed with SIGKILL while all run, resumed once they all ended at the service. */
async function killedAndResumed(sim: Sim): Promise<{ db: string; resumed: string }> {
  const dir = tempDir();
  const questions = join(dir, 'q.csv');
  writeFileSync(questions, `id,question\n${Array.from({ length: ITEMS }, (_, i) => `q${i},Question ${i} @duration=1500`).join('\n')}\n`);
  const db = join(dir, 'resq.db');
  const env = { RESQ_API_KEY: sim.keys[0] };
  const args = ['run', questions, '--db', db, '--batch', 'times', '--base-url', sim.url, '--concurrency', String(ITEMS), '--json'];
  const child = spawnCli(args, env);
  const done = collect(child);
  let running = 0;
  child.stdout?.on('data', (d: Buffer) => {
    running += d.toString().split('\n').filter((l) => l.includes('"type":"item"') && l.includes('"state":"running"')).length;
    if (running >= ITEMS && !child.killed) child.kill('SIGKILL');
  });
  expect((await done).signal).toBe('SIGKILL');
  // Every run ends at the service while no resq watches.
  while (sim.ledger().runs.length < ITEMS || sim.ledger().runs.some((r) => r.status === 'running')) await new Promise((r) => setTimeout(r, 50));
  const resumed = await runCliChild(args, env);
  expect(resumed.stderr).not.toContain('internal error');
  expect(resumed.code).toBe(0);
  return { db, resumed: resumed.stdout };
}

/** The run as the service gives it (GET /runs/{id}). */
async function serviceRun(sim: Sim, id: string): Promise<Record<string, string | null>> {
  const res = await fetch(`${sim.url}/runs/${id}`, { headers: { authorization: `Bearer ${sim.keys[0]}` } });
  return (await res.json()) as Record<string, string | null>;
}

async function read(db: string): Promise<{ store: SqliteStore; rows: ExportRow[]; batch: NonNullable<Awaited<ReturnType<SqliteStore['findBatch']>>> }> {
  const store = SqliteStore.open(db);
  const batch = (await store.findBatch('times'))!;
  const rows: ExportRow[] = [];
  for await (const r of exportRows(store, batch)) rows.push(r);
  return { store, rows, batch };
}

describe('run times after a SIGKILL and a resume', () => {
  let sim: Sim;
  let bare: Sim;
  beforeAll(async () => {
    sim = await startSim({ seed: 3 });
    bare = await startSim({ seed: 3, runTimes: false });
  });
  afterAll(async () => {
    await sim.close();
    await bare.close();
  });

  it('records the lengths the service measured, not the time resq was down', async () => {
    const { db } = await killedAndResumed(sim);
    const { store, rows, batch } = await read(db);
    try {
      expect(rows).toHaveLength(ITEMS);
      for (const row of rows) {
        const run = await serviceRun(sim, row.run_ids[0]!);
        const measured = (Date.parse(run.finished_at!) - Date.parse(run.created_at!)) / 1000;
        // resq's own clock saw it from admission to the resume: the time it was down included.
        const own = (await store.getRun(row.run_ids[0]!))!;
        expect(Date.parse(own.finishedAt!) - Date.parse(own.createdAt)).toBeGreaterThan(measured * 1000);
        expect(row.duration_seconds).toBe(measured);
        const view = await readItemView(store, batch, row.id, { nowMs: Date.now() });
        expect(view.runs[0]).toMatchObject({ seconds: measured, endedUnwatched: true });
      }
      // The notebook's run durations (its slowest items) say the same as show and the export.
      const durations = runDurations(await store.runTimes(batch.id));
      expect(durations.map((d) => d.seconds).sort()).toEqual(rows.map((r) => r.duration_seconds).sort());
    } finally {
      await store.close();
    }
  }, 60_000);

  it('without service times marks the runs that ended unwatched and leaves them out of every duration statistic', async () => {
    const { db } = await killedAndResumed(bare);
    const { store, rows, batch } = await read(db);
    try {
      expect((await serviceRun(bare, rows[0]!.run_ids[0]!)).created_at).toBeUndefined();
      expect(rows.map((r) => [r.status, r.duration_seconds])).toEqual(rows.map(() => ['completed', null]));
      const times = await store.runTimes(batch.id);
      expect(times.map((t) => [t.unwatched, t.seconds])).toEqual(times.map(() => [true, null]));
      expect(runDurations(times).map((d) => [d.seconds, d.ended_unwatched])).toEqual(times.map((t) => [null, t.finishedAt]));
      // No rate (nor ETA) is drawn from ends that are only when resq found them.
      expect((await store.recentFinishes(batch.id, 100)).finishedAt).toEqual([]);
      expect(await store.itemSeconds(batch.id)).toEqual([]);
      expect((await store.itemStats(batch.id)).get('q0')!.runSeconds).toBe(0);
      const view = await readItemView(store, batch, 'q0', { nowMs: Date.now() });
      expect(view.runs[0]).toMatchObject({ seconds: null, endedUnwatched: true });
    } finally {
      await store.close();
    }
    const shown = await runCliChild(['show', 'times', 'q0', '--db', db]);
    expect(shown.stdout).toMatch(/completed \(ended while resq was stopped, at or before \d{4}-\d\d-\d\dT/);
  }, 60_000);
});
