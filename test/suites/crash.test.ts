import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type Sim } from '../../src/sim/index.js';
import { OFF_THREAD_BYTES } from '../../src/tables/index.js';
import { exportRows, type ExportRow } from '../../src/runner/index.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { collect, runCliChild, spawnCli, tempDir } from '../support/cli.js';
import { fixtureItems, writeFixture } from '../support/batch-fixture.js';
import { expectAdmittedOnce, expectBatchWhole } from '../support/expect-batch.js';

// Crash suite: the real CLI in a child process, SIGKILLed at random moments mid-batch
// and resumed each time. At the end the simulator must have admitted every question
// exactly once and every item must hold the right answer.
describe('crash and resume', () => {
  let sim: Sim;
  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 100, seed: 7 });
    sim.faults.set({ error5xxAfter: 0.02, dropAfter: 0.02, rate429: 0.02, retryAfterSeconds: 0 });
  });
  afterAll(async () => sim.close());

  it('survives 20 SIGKILLs with no run admitted twice and nothing lost', async () => {
    const dir = tempDir();
    // Enough work that every one of the 20 kills lands mid-batch: with 3 copies of the
    // fixture the batch could end after 19 (its last items finishing between two kills).
    const copies = 5;
    const items = fixtureItems('150ms', copies);
    const { questions, policy } = writeFixture(dir, items);
    const db = join(dir, 'resq.db');
    const env = { RESQ_API_KEY: sim.keys[0] };
    const args = ['run', questions, '--db', db, '--batch', 'crash', '--policy', policy, '--base-url', sim.url, '--concurrency', '6', '--out', join(dir, 'out'), '--json'];
    let kills = 0;
    let seed = 12345;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let round = 0; round < 40 && kills < 20; round++) {
      const child = spawnCli(args, env);
      const done = collect(child);
      // Kill after a random number of progress events, so every kill lands mid-batch.
      const target = 1 + Math.floor(rand() * 6);
      let seen = 0;
      child.stdout?.on('data', (d: Buffer) => {
        seen += d.toString().split('\n').filter((l) => l.includes('"type":"item"') || l.includes('"type":"decision"')).length;
        if (seen >= target && child.exitCode === null && !child.killed) child.kill('SIGKILL');
      });
      const r = await done;
      if (r.signal === 'SIGKILL') kills++;
      else {
        expect(r.stderr).not.toContain('internal error');
        if (r.code === 0 || r.code === 1) break; // finished before the kill landed
      }
    }
    expect(kills).toBeGreaterThanOrEqual(20);
    const last = await runCliChild(args, env);
    expect(last.stderr).not.toContain('internal error');
    expect(last.code).toBe(1); // the @fail items fail, nothing else

    expectAdmittedOnce(sim.counters(), items);

    const store = SqliteStore.open(db);
    try {
      const batch = await store.findBatch('crash');
      if (!batch) throw new Error('no batch');
      const rows: ExportRow[] = [];
      for await (const r of exportRows(store, batch)) rows.push(r);
      expectBatchWhole(rows, items, sim.ledger());
      const fileCount = rows.reduce((n, r) => n + r.files.length, 0);
      expect(fileCount).toBe(copies * 8); // md, pdb, png, csv, png, md, csv, pdb per copy of the fixture
      // No temporary file survives the kills.
      const leftovers = readdirSync(join(dir, 'out'), { recursive: true }).filter((p) => String(p).endsWith('.partial'));
      expect(leftovers).toEqual([]);
    } finally {
      await store.close();
    }
  }, 240_000);

  it('a SIGKILL in the middle of loading a large file leaves the whole batch or none, never a part, and the next run loads it whole', async () => {
    const dir = tempDir();
    const questions = join(dir, 'large.csv');
    const row = (i: number): string => `r${i},Question ${i} about something long enough to fill a file,t${i % 9}`;
    const n = Math.ceil((1.5 * OFF_THREAD_BYTES) / row(1e6).length);
    writeFileSync(questions, `id,question,topic\n${Array.from({ length: n }, (_, i) => row(i)).join('\n')}\n`);
    const db = join(dir, 'resq.db');
    const args = ['run', questions, '--db', db, '--batch', 'large', '--dry-run', '--json'];
    const child = spawnCli(args);
    const done = collect(child);
    // A large load writes through a rollback journal: kill while that journal exists.
    const poll = setInterval(() => {
      if (existsSync(`${db}-journal`) && !child.killed) child.kill('SIGKILL');
    }, 2);
    const killed = await done;
    clearInterval(poll);
    expect(killed.signal).toBe('SIGKILL');
    const store = SqliteStore.open(db);
    // All or nothing: the kill lands while the load's journal exists, so before its commit
    // (in the rare race where the commit slips in first, the batch must then be whole).
    const found = await store.findBatch('large');
    expect(store.db.prepare('SELECT count(*) FROM items').pluck().get()).toBe(found ? n : 0);
    expect(found?.totalItems ?? n).toBe(n);
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    if (found) store.db.prepare('DELETE FROM batches').run();
    await store.close();
    const again = await runCliChild(args);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout.trim().split('\n').at(-1)!)).toMatchObject({ type: 'dry-run', items: n, invalid: 0 });
  }, 120_000);
});
