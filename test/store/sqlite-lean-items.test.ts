import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type Sim } from '../../src/sim/index.js';
import { exportRows, type ExportRow } from '../../src/runner/index.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { collect, ROOT, runCliChild, tempDir } from '../support/cli.js';
import { spawn } from 'node:child_process';
import { fixtureItems, writeFixture } from '../support/batch-fixture.js';
import { expectAdmittedOnce, expectBatchWhole } from '../support/expect-batch.js';

/**
 * Migration 019 (the lean store, issue 32) on a database the OLD code left mid-batch: the
 * resq of the last commit before 019 (its sources taken from git, run as a child process
 * through its own bin) runs a batch against the simulator and is SIGKILLed with items in
 * flight; the new code opens the file (migrating it), sees every item in flight as it was
 * (owner, token, lease, key, run, step) and resumes the batch to its end: every question
 * admitted once, every pause answered once, every answer right.
 */
const OLD_COMMIT = '54dfee6decdeb30f5004522b7f946a4080c6e81b';
/** The last commit before 020 (batch_num keys): its schema is 019's. */
const COMMIT_019 = 'c712a023e4736c3c12945b257929cfab365eede8';
const IN_FLIGHT = "('submitting', 'running', 'waiting')";

/** The old resq's sources (at `commit`) in a folder of their own, with this checkout's node_modules. */
function oldResq(commit: string): string {
  const dir = join(tempDir('resq-old-'), 'resq');
  mkdirSync(dir);
  const archive = (): Buffer => execFileSync('git', ['-C', ROOT, 'archive', commit, 'bin', 'src', 'package.json', 'tsconfig.json'], { maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
  let tar: Buffer;
  try {
    tar = archive();
  } catch {
    // A shallow clone lacks the old commit: fetch it from where this clone came from, once.
    try {
      execFileSync('git', ['-C', ROOT, 'fetch', '-q', '--unshallow'], { stdio: 'ignore' });
    } catch {
      execFileSync('git', ['-C', ROOT, 'fetch', '-q', 'origin', commit], { stdio: 'ignore' });
    }
    tar = archive();
  }
  execFileSync('tar', ['-x', '-C', dir], { input: tar });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

type Row = Record<string, unknown>;

/** The tables and views with a column named `col`. */
function withColumn(db: Database.Database, col: string): string[] {
  return db.prepare("SELECT m.name FROM sqlite_master m JOIN pragma_table_info(m.name) p WHERE m.type IN ('table', 'view') AND p.name = ? ORDER BY m.name").pluck().all(col) as string[];
}

/** The tables that name a batch (by batch_id before 020, batch_num after). */
const BATCH_TABLES = ['items', 'threads', 'runs', 'decisions', 'files', 'file_copies', 'model_batches', 'model_runs', 'workers', 'item_counts', 'outbox'];

interface Killed {
  db: string;
  args: string[];
  env: Record<string, string>;
  items: ReturnType<typeof fixtureItems>;
}

/** The resq of `commit` runs a batch against the simulator and is SIGKILLed once several items are at the service. */
async function killMidBatch(sim: Sim, commit: string): Promise<Killed> {
  const old = oldResq(commit);
  const dir = tempDir();
  const items = fixtureItems('300ms', 3);
  const { questions, policy } = writeFixture(dir, items);
  const db = join(dir, 'resq.db');
  const env = { RESQ_API_KEY: sim.keys[0]! };
  const args = ['run', questions, '--db', db, '--batch', 'lean', '--policy', policy, '--base-url', sim.url, '--concurrency', '8', '--json'];
  const child = spawn(process.execPath, [join(old, 'bin/resq.js'), ...args], {
    cwd: old,
    env: { ...process.env, ...env, FORCE_COLOR: '0', RESQ_BASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const done = collect(child);
  let seen = 0;
  child.stdout?.on('data', (d: Buffer) => {
    seen += d.toString().split('\n').filter((l) => l.includes('"type":"item"')).length;
    if (seen >= 9 && child.exitCode === null && !child.killed) child.kill('SIGKILL');
  });
  const killed = await done;
  expect(killed.stderr).toBe('');
  expect(killed.signal).toBe('SIGKILL');
  return { db, args, env, items };
}

/** The new code resumes the batch to its end: each question admitted once, each pause answered once, every answer right. */
async function resumesWhole(sim: Sim, k: Killed): Promise<void> {
  const last = await runCliChild(k.args, k.env);
  expect(last.stderr).not.toContain('internal error');
  expect(last.code).toBe(1); // the @fail items fail, nothing else
  expectAdmittedOnce(sim.counters(), k.items);
  const after = SqliteStore.open(k.db);
  try {
    const batch = (await after.findBatch('lean'))!;
    const rows: ExportRow[] = [];
    for await (const r of exportRows(after, batch)) rows.push(r);
    expectBatchWhole(rows, k.items, sim.ledger());
    expect(after.db.prepare('SELECT count(*) FROM flights').pluck().get()).toBe(0);
  } finally {
    await after.close();
  }
}

describe('019_lean_items on a database left mid-batch by kill -9 of the old code', () => {
  let sim: Sim;
  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 100, seed: 11 });
  });
  afterAll(async () => sim.close());

  it('moves the items in flight to flights and the batch resumes to its end, nothing sent twice', async () => {
    const k = await killMidBatch(sim, OLD_COMMIT);

    // The file as the old code left it: its schema, items in flight under the dead worker.
    const raw = new Database(k.db, { readonly: true });
    const applied = raw.prepare('SELECT name FROM _migrations ORDER BY name').pluck().all() as string[];
    expect(applied.at(-1)! < '017').toBe(true);
    const before = raw.prepare(`SELECT id, state, step, pending_key, pending_answer, run_id, thread_id, run_status, owner, lease_until, fence FROM items WHERE state IN ${IN_FLIGHT} ORDER BY seq`).all() as Row[];
    const batchId = raw.prepare("SELECT id FROM batches WHERE name = 'lean'").pluck().get() as string;
    raw.close();
    expect(before.length).toBeGreaterThan(0);
    expect(before.every((r) => r.owner !== null)).toBe(true);

    // Opened by the new code: migrated (019 and 020 at once), every item in flight read as it was.
    const store = SqliteStore.open(k.db);
    try {
      expect(store.db.prepare("SELECT count(*) FROM _migrations WHERE name IN ('019_lean_items', '020_batch_num_keys')").pluck().get()).toBe(2);
      expect(withColumn(store.db, 'batch_id')).toEqual([]);
      expect(store.db.prepare('SELECT count(*) FROM flights').pluck().get()).toBe(before.length);
      for (const r of before) {
        const it = await store.getItem(batchId, r.id as string);
        expect({
          id: it!.id, state: it!.state, step: it!.step, pending_key: it!.pendingKey, pending_answer: it!.pendingAnswer === null ? null : JSON.stringify(it!.pendingAnswer),
          run_id: it!.runId, thread_id: it!.threadId, run_status: it!.runStatus, owner: it!.owner, lease_until: it!.leaseUntil, fence: it!.fence,
        }).toEqual(r);
      }
      const counts = await store.itemCounts(batchId);
      expect(counts.submitting + counts.running + counts.waiting).toBe(before.length);
    } finally {
      await store.close();
    }

    await resumesWhole(sim, k);
  }, 120_000);
});

describe('020_batch_num_keys on a database left mid-batch by kill -9 of the code before it', () => {
  let sim: Sim;
  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 100, seed: 12 });
  });
  afterAll(async () => sim.close());

  it('keys every row by its batch\'s num, the flights as they were, and the batch resumes to its end, nothing sent twice', async () => {
    const k = await killMidBatch(sim, COMMIT_019);

    // The file as the 019 code left it: every table by batch_id, items in flight in flights under the dead worker.
    const raw = new Database(k.db, { readonly: true });
    expect((raw.prepare('SELECT name FROM _migrations ORDER BY name').pluck().all() as string[]).at(-1)).toBe('019_lean_items');
    expect(withColumn(raw, 'batch_id')).toEqual(expect.arrayContaining(BATCH_TABLES));
    const batchId = raw.prepare("SELECT id FROM batches WHERE name = 'lean'").pluck().get() as string;
    const num = raw.prepare("SELECT num FROM batches WHERE name = 'lean'").pluck().get() as number;
    const rowsOf = (db: Database.Database, by: string): Record<string, number> =>
      Object.fromEntries(BATCH_TABLES.map((t) => [t, db.prepare(`SELECT count(*) FROM ${t} WHERE ${by}`).pluck().get() as number]));
    const before = rowsOf(raw, `batch_id = '${batchId}'`);
    const flying = raw.prepare('SELECT i.id, f.state, f.step, f.pending_key, f.run_id, f.owner, f.lease_until, f.fence FROM flights f JOIN items i ON i.key = f.item_key ORDER BY i.seq').all() as Row[];
    const decisions = raw.prepare('SELECT id, item_id, run_id, cost FROM decisions ORDER BY id').all();
    const approved = raw.prepare('SELECT coalesce(sum(cost), 0) FROM decisions').pluck().get() as number;
    raw.close();
    expect(flying.length).toBeGreaterThan(0);
    expect(flying.every((r) => r.owner !== null)).toBe(true);
    expect(before.runs).toBeGreaterThan(0);
    expect(before.items).toBe(k.items.length);

    // Opened by the new code: 020 applied, no batch_id column left, every row there with its batch's num.
    const store = SqliteStore.open(k.db);
    try {
      expect(store.db.prepare("SELECT count(*) FROM _migrations WHERE name = '020_batch_num_keys'").pluck().get()).toBe(1);
      expect(withColumn(store.db, 'batch_id')).toEqual([]);
      expect(rowsOf(store.db, `batch_num = ${num}`)).toEqual(before);
      expect(store.db.pragma('foreign_key_check')).toEqual([]);
      expect(store.db.prepare('SELECT id, item_id, run_id, cost FROM decisions ORDER BY id').all()).toEqual(decisions);
      expect(await store.approvedCost(batchId)).toBeCloseTo(approved, 9);
      for (const r of flying) {
        const it = await store.getItem(batchId, r.id as string);
        expect({ id: it!.id, state: it!.state, step: it!.step, pending_key: it!.pendingKey, run_id: it!.runId, owner: it!.owner, lease_until: it!.leaseUntil, fence: it!.fence }).toEqual(r);
      }
      const counts = await store.itemCounts(batchId);
      expect(counts.submitting + counts.running + counts.waiting).toBe(flying.length);
    } finally {
      await store.close();
    }

    await resumesWhole(sim, k);
  }, 120_000);
});
