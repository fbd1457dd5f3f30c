import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type Sim, type SimCounters, type SimLedger } from '../../src/sim/index.js';
import { BATCH_BUDGET, budgetItems, expectedApproved, writeBudgetFixture, type BudgetItem } from '../support/budget-fixture.js';
import { collect, runCliChild, spawnCli, tempDir, type CliResult } from '../support/cli.js';

/**
 * Issue 28 on SQLite, where its faults apply: a worker frozen (SIGSTOP) past its lease while
 * another takes its items over, then continued; and a database another connection holds a
 * write lock on for longer than the busy timeout. Pauses answered by a policy with a
 * batch_budget. Afterwards: one decision per paused run, nothing sent twice, the frozen
 * worker wrote nothing over the new owner, no crash, and a busy database was waited on,
 * never recorded as an item's failure.
 */

const LEASE_MS = '1500';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resolves once `pred` holds for the child's stdout so far (or it exits). */
function whenOutput(child: ChildProcess, pred: (out: string) => boolean): Promise<void> {
  let out = '';
  return new Promise((resolve) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (pred(out)) resolve();
    });
    child.on('close', () => resolve());
  });
}

/** Worker output that shows a crash or a database error surfacing. */
function expectNoCrash(name: string, r: CliResult): void {
  const how = `${name}: code ${r.code} signal ${r.signal}\n${r.stderr}`;
  expect.soft(r.stderr, how).not.toMatch(/internal error|Unhandled|uncaught/i);
  expect.soft(r.stderr, how).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
  // A busy file is waited on and said once, with its bound (db-wait.ts): never as an error.
  const rest = r.stderr.split('\n').filter((l) => !WAIT_NOTICE.test(l));
  expect.soft(rest.join('\n'), how).not.toMatch(/database is locked|SQLITE_BUSY/);
  expect.soft(r.stderr.split('\n').filter((l) => WAIT_NOTICE.test(l)).length, how).toBeLessThanOrEqual(1);
}

/** The one line a worker says when it starts waiting on a busy file. */
const WAIT_NOTICE = /^the database \S+ failed \(SQLITE_BUSY\w*\): waiting for it up to \d+ s$/;

/** The checks both faults share: decisions, runs, items and the simulator's counters. */
function expectWhole(dbPath: string, batch: string, list: readonly BudgetItem[], before: SimCounters, after: SimCounters, ledger: SimLedger): void {
  const db = new Database(dbPath, { readonly: true });
  try {
    const batchId = (db.prepare('SELECT id FROM batches WHERE name = ?').get(batch) as { id: string }).id;
    const perRun = db.prepare('SELECT run_id, item_id, count(*) AS n FROM decisions WHERE batch_num = (SELECT num FROM batches WHERE id = ?) GROUP BY run_id, item_id ORDER BY item_id').all(batchId) as { run_id: string; item_id: string; n: number }[];
    expect.soft(perRun.filter((r) => r.n !== 1), 'runs with other than one decision').toEqual([]);
    expect.soft(perRun.map((r) => r.item_id), 'items with a decision').toEqual(list.map((i) => i.id).sort());
    const chain = db.prepare('SELECT item_id, step, count(*) AS n FROM runs WHERE batch_num = (SELECT num FROM batches WHERE id = ?) GROUP BY item_id, step').all(batchId) as { item_id: string; step: number; n: number }[];
    expect.soft(chain.filter((r) => r.n > 1), 'a step with two runs').toEqual([]);
    for (const it of list) expect.soft(chain.filter((r) => r.item_id === it.id).map((r) => r.step).sort(), `runs of ${it.id}`).toEqual([0, 1]);
    const rows = db.prepare('SELECT id, state, step, text, error FROM items WHERE batch_num = (SELECT num FROM batches WHERE id = ?) ORDER BY seq').all(batchId) as { id: string; state: string; step: number; text: string | null; error: string | null }[];
    expect.soft(rows.filter((r) => r.state !== 'completed').map((r) => `${r.id} ${r.state} ${r.error ?? ''}`), 'items not completed').toEqual([]);
    expect.soft(rows.filter((r) => r.step !== 1).map((r) => `${r.id} step ${r.step}`), 'items whose step is not 1').toEqual([]);
    const decisions = db.prepare('SELECT item_id, run_id, tool, answer, cost FROM decisions WHERE batch_num = (SELECT num FROM batches WHERE id = ?)').all(batchId) as { item_id: string; run_id: string; tool: string; answer: string; cost: number }[];
    const approved = decisions.filter((d) => d.tool === 'confirm_scope' && JSON.parse(d.answer).approved === true);
    const total = decisions.reduce((n, d) => n + d.cost, 0);
    expect.soft(total, 'cost counted').toBeLessThanOrEqual(BATCH_BUDGET);
    expect.soft({ count: new Set(approved.map((d) => d.run_id)).size, cost: total }, 'plans approved').toEqual(expectedApproved(list));
    for (const it of list.filter((i) => i.tool === 'confirm_scope')) {
      const text = rows.find((r) => r.id === it.id)?.text ?? '';
      expect.soft(text, `${it.id}: the agent got the decision recorded`).toContain(approved.some((d) => d.item_id === it.id) ? 'confirm_scope: approved' : 'Narrow answer');
    }
  } finally {
    db.close();
  }
  for (const it of list) expect.soft((after.admissionsByInput[it.question] ?? 0) - (before.admissionsByInput[it.question] ?? 0), `admissions of ${it.id}`).toBe(1);
  expect.soft(after.respondRuns - before.respondRuns, 'responds').toBe(list.length);
  expect.soft(Object.entries(after.admissionsByKey).filter(([, n]) => n !== 1), 'keys with more than one run').toEqual([]);
  // By the simulator's own record: every key of these items carried one body.
  const questions = new Set(list.map((i) => i.question));
  const mine = new Set(ledger.runs.filter((r) => questions.has(r.input)).map((r) => r.id));
  const keys = ledger.keys.filter((k) => k.madeId !== null && mine.has(k.madeId));
  expect.soft(keys.filter((k) => k.bodies.length !== 1).map((k) => `${k.scope} ${k.key}`), 'keys sent with more than one body').toEqual([]);
  expect.soft(keys.filter((k) => k.scope.endsWith('/respond')).length, 'respond keys at the simulator').toBe(list.length);
}

describe('SQLite workers under the faults that apply to one file (issue 28)', () => {
  let sim: Sim;
  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 100, seed: 29 });
  });
  afterAll(async () => {
    await sim?.close();
  });

  /** A batch `name` of 24 items of one pause each (`dur` a run), loaded with --dry-run; the simulator's counters before it runs. */
  async function loaded(name: string, dur: string) {
    const dir = tempDir();
    const list = budgetItems(24, dur, { prefix: name, files: false });
    const { questions, policy } = writeBudgetFixture(dir, list);
    const db = join(dir, 'resq.db');
    const env = { RESQ_API_KEY: 'sim-key-alice', RESQ_LEASE_MS: LEASE_MS };
    const load = await runCliChild(['run', questions, '--db', db, '--batch', name, '--policy', policy, '--base-url', sim.url, '--concurrency', '6', '--dry-run'], env);
    expect(load.code, load.stderr).toBe(0);
    return { dir, list, db, env, before: sim.counters() };
  }

  it('a worker frozen past its lease while another takes over, then continued: one decision per paused run, nothing sent twice, nothing written over the new owner, no crash', async () => {
    const { dir, list, db, env, before } = await loaded('stop', '1500ms');
    const args = ['resume', 'stop', '--db', db, '--out', join(dir, 'out'), '--json'];
    const sleeper = spawnCli(args, env);
    const sleeperDone = collect(sleeper);
    // Frozen once it holds runs in flight and has answered some pauses (their next runs are going).
    await whenOutput(sleeper, (o) => o.split('\n').filter((l) => l.includes('"type":"item"')).length >= 2);
    const look = new Database(db, { readonly: true });
    const held = (): number => (look.prepare(`SELECT count(*) AS n FROM flights WHERE owner IS NOT NULL AND state IN ('submitting', 'running', 'waiting')`).get() as { n: number }).n;
    for (let i = 0; i < 200 && held() === 0; i++) await sleep(25);
    const heldWhenStopped = held();
    sleeper.kill('SIGSTOP');
    let other: CliResult;
    try {
      // The second worker waits out the lease, takes the frozen worker's items over and finishes the batch.
      other = await runCliChild(args, env);
    } finally {
      sleeper.kill('SIGCONT');
    }
    const woke = await sleeperDone;
    look.close();
    expect.soft(heldWhenStopped, 'the frozen worker held items').toBeGreaterThan(0);
    expectNoCrash('second worker', other);
    expectNoCrash('continued worker', woke);
    expect.soft(other.code, other.stderr).toBe(0);
    expect.soft(woke.code, woke.stderr).toBe(0);
    // It left what was taken over to the new owner.
    expect.soft(woke.stdout).toMatch(/item \S+ was claimed (by worker [^;]+|again and is \w+ now, held by no worker); token \d+, this driver's \d+: this worker stopped driving it/);
    expectWhole(db, 'stop', list, before, sim.counters(), sim.ledger());
  }, 180_000);

  it('a database another connection holds a write lock on past the busy timeout: waited on, never an item failure, no crash, nothing sent twice', async () => {
    const { dir, list, db, env, before } = await loaded('busy', '400ms');
    const worker = spawnCli(['resume', 'busy', '--db', db, '--out', join(dir, 'out'), '--json'], env);
    const done = collect(worker);
    await whenOutput(worker, (o) => o.split('\n').filter((l) => l.includes('"type":"item"')).length >= 2);
    // The worker's wait said on stderr: the one line of db-wait.ts, once its busy timeout (10 s) ran out.
    let said = false;
    const waiting = new Promise<boolean>((resolve) => {
      let err = '';
      worker.stderr!.on('data', (d: Buffer) => {
        err += d.toString();
        if (err.split('\n').some((l) => WAIT_NOTICE.test(l))) resolve(true);
      });
      worker.on('close', () => resolve(false));
    });
    // Another connection takes the write lock and keeps it until the worker has waited past its busy timeout.
    const locker = new Database(db, { timeout: 30_000 });
    locker.exec('BEGIN IMMEDIATE');
    const flying = (locker.prepare(`SELECT count(*) AS n FROM flights WHERE state IN ('submitting', 'running', 'waiting')`).get() as { n: number }).n;
    try {
      // Bounded so a worker that never waits fails the test instead of hanging it.
      said = await Promise.race([waiting, sleep(60_000).then(() => false)]);
    } finally {
      locker.exec('COMMIT');
      locker.close();
    }
    const r = await done;
    expect.soft(flying, 'items in flight when the lock was taken').toBeGreaterThan(0);
    expect.soft(said, `the worker said it waits on the busy database\n${r.stderr}`).toBe(true);
    expect.soft(r.stderr.split('\n').filter((l) => WAIT_NOTICE.test(l)), 'wait lines').toHaveLength(1);
    expectNoCrash('worker', r);
    expect.soft(r.code, r.stderr).toBe(0);
    expectWhole(db, 'busy', list, before, sim.counters(), sim.ledger());
  }, 180_000);
});
