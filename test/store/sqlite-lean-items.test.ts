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
const IN_FLIGHT = "('submitting', 'running', 'waiting')";

/** The old resq's sources in a folder of their own, with this checkout's node_modules. */
function oldResq(): string {
  const dir = join(tempDir('resq-old-'), 'resq');
  mkdirSync(dir);
  const archive = (): Buffer => execFileSync('git', ['-C', ROOT, 'archive', OLD_COMMIT, 'bin', 'src', 'package.json', 'tsconfig.json'], { maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
  let tar: Buffer;
  try {
    tar = archive();
  } catch {
    // A shallow clone lacks the old commit: fetch it from where this clone came from, once.
    try {
      execFileSync('git', ['-C', ROOT, 'fetch', '-q', '--unshallow'], { stdio: 'ignore' });
    } catch {
      execFileSync('git', ['-C', ROOT, 'fetch', '-q', 'origin', OLD_COMMIT], { stdio: 'ignore' });
    }
    tar = archive();
  }
  execFileSync('tar', ['-x', '-C', dir], { input: tar });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

type Row = Record<string, unknown>;

describe('019_lean_items on a database left mid-batch by kill -9 of the old code', () => {
  let sim: Sim;
  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 100, seed: 11 });
  });
  afterAll(async () => sim.close());

  it('moves the items in flight to flights and the batch resumes to its end, nothing sent twice', async () => {
    const old = oldResq();
    const dir = tempDir();
    const items = fixtureItems('300ms', 3);
    const { questions, policy } = writeFixture(dir, items);
    const db = join(dir, 'resq.db');
    const env = { RESQ_API_KEY: sim.keys[0] };
    const args = ['run', questions, '--db', db, '--batch', 'lean', '--policy', policy, '--base-url', sim.url, '--concurrency', '8', '--json'];

    // The old code, killed once several items are at the service.
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

    // The file as the old code left it: its schema, items in flight under the dead worker.
    const raw = new Database(db, { readonly: true });
    const applied = raw.prepare('SELECT name FROM _migrations ORDER BY name').pluck().all() as string[];
    expect(applied.at(-1)! < '017').toBe(true);
    const before = raw.prepare(`SELECT id, state, step, pending_key, pending_answer, run_id, thread_id, run_status, owner, lease_until, fence FROM items WHERE state IN ${IN_FLIGHT} ORDER BY seq`).all() as Row[];
    const batchId = raw.prepare("SELECT id FROM batches WHERE name = 'lean'").pluck().get() as string;
    raw.close();
    expect(before.length).toBeGreaterThan(0);
    expect(before.every((r) => r.owner !== null)).toBe(true);

    // Opened by the new code: migrated, every item in flight read as it was.
    const store = SqliteStore.open(db);
    try {
      expect(store.db.prepare("SELECT count(*) FROM _migrations WHERE name = '019_lean_items'").pluck().get()).toBe(1);
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

    // The new code resumes the batch to its end.
    const last = await runCliChild(args, env);
    expect(last.stderr).not.toContain('internal error');
    expect(last.code).toBe(1); // the @fail items fail, nothing else
    expectAdmittedOnce(sim.counters(), items);
    const after = SqliteStore.open(db);
    try {
      const batch = (await after.findBatch('lean'))!;
      const rows: ExportRow[] = [];
      for await (const r of exportRows(after, batch)) rows.push(r);
      expectBatchWhole(rows, items, sim.ledger());
      expect(after.db.prepare('SELECT count(*) FROM flights').pluck().get()).toBe(0);
    } finally {
      await after.close();
    }
  }, 120_000);
});
