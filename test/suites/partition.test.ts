import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type Sim } from '../../src/sim/index.js';
import { itemColumns } from '../../src/store/common/flights.js';
import { collect, runCliChild, spawnCli, tempDir, type CliResult } from '../support/cli.js';
import { startPgServer, type PgServer } from '../support/pg-server.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import { BATCH_BUDGET, budgetItems, expectedApproved, writeBudgetFixture } from '../support/budget-fixture.js';

/**
 * Issue 28: nothing sent twice and nothing lost while the network between a worker and its
 * PostgreSQL database misbehaves. Three real worker processes on one batch, each reaching
 * the database through a TCP proxy of its own (test/support/tcp-proxy.ts); one of them is
 * cut off (black-holed past its lease, then healed), has every connection reset, has new
 * connections refused, has every packet delayed, and is finally killed with SIGKILL while
 * cut off; a fresh worker takes its place. Pauses are answered by a policy with a
 * batch_budget. Afterwards the database, the simulator's counters and a watcher that read
 * the items table all along (over its own connection, not through any proxy) say whether
 * anything was decided, sent, or driven twice, lost, or crashed.
 */

const LEASE_MS = 2000;

/** The warning of a driver whose write found a newer fencing token (src/store/common/fencing.ts, runner/scheduler.ts): the write was refused. */
const STALE_REFUSED = /"type":"warning".*item \S+ was (claimed|let go).*; token \d+, this driver's \d+: this worker stopped driving it/;

interface Worker {
  name: string;
  child: ChildProcess;
  done: Promise<CliResult>;
  proxy: TcpProxy | null;
  killed: boolean;
}

/**
 * The items as they are now, read straight from the tables: an item in flight has its state,
 * step, owner, run and text in its `flights` row (migration 019), laid over its own row; its
 * batch's id is its batch's by number (020).
 */
const ITEMS_NOW = `(SELECT b.id AS batch_id, ${itemColumns('i', 'f')}
  FROM items i JOIN batches b ON b.num = i.batch_num LEFT JOIN flights f ON f.item_key = i.key)`;

/** Polls the items and runs tables through a direct connection: a step or run going backwards, or a finished item starting again, is a second driver writing over the first. */
function startWatcher(url: string, batchId: string) {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  const violations: string[] = [];
  const seen = new Map<string, { step: number; state: string; runStep: number }>();
  const owners = new Map<string, Set<string>>();
  let polls = 0;
  let stopped = false;
  const terminal = new Set(['completed', 'failed', 'cancelled', 'error']);
  const loop = (async () => {
    await client.connect();
    while (!stopped) {
      const { rows } = await client.query<{ id: string; step: number; state: string; owner: string | null; run_step: number | null }>(
        `SELECT i.id, i.step, i.state, i.owner, r.step AS run_step FROM ${ITEMS_NOW} i LEFT JOIN runs r ON r.id = i.run_id WHERE i.batch_id = $1`,
        [batchId],
      );
      polls++;
      for (const r of rows) {
        const before = seen.get(r.id);
        const runStep = r.run_step ?? -1;
        if (before) {
          if (r.step < before.step) violations.push(`item ${r.id}: step went back from ${before.step} to ${r.step}`);
          if (runStep < before.runStep) violations.push(`item ${r.id}: its run went back from step ${before.runStep} to ${runStep}`);
          if (terminal.has(before.state) && !terminal.has(r.state)) violations.push(`item ${r.id}: ${before.state} became ${r.state}`);
        }
        seen.set(r.id, { step: r.step, state: r.state, runStep });
        if (r.owner) {
          let set = owners.get(r.id);
          if (!set) owners.set(r.id, (set = new Set()));
          set.add(r.owner);
        }
      }
      const dup = await client.query<{ run_id: string; n: number }>(
        'SELECT run_id, count(*)::int AS n FROM decisions WHERE batch_num = (SELECT num FROM batches WHERE id = $1) GROUP BY run_id HAVING count(*) > 1',
        [batchId],
      );
      for (const d of dup.rows) {
        const v = `run ${d.run_id}: ${d.n} decisions`;
        if (!violations.includes(v)) violations.push(v);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  return {
    violations,
    owners,
    polls: () => polls,
    /** The pg client, for the test's own looks at the database. */
    client,
    async stop(): Promise<void> {
      stopped = true;
      await loop;
      await client.end();
    },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `cond` holds, checking every 50 ms; false after `ms` (a fault that cannot happen is skipped, not a hang). */
async function waitFor(cond: () => Promise<boolean> | boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await cond()) return true;
    await sleep(50);
  }
  return false;
}

describe('workers on one PostgreSQL batch while the network to the database misbehaves (issue 28)', () => {
  let db: PgServer;
  let sim: Sim;
  beforeAll(async () => {
    [db, sim] = await Promise.all([startPgServer(), startSim({ defaultDurationMs: 100, seed: 28 })]);
  });
  afterAll(async () => {
    await sim?.close();
    await db?.stop();
  });

  it('one worker black-holed past its lease, reset, refused, delayed, then killed while cut off: one decision per paused run, every run and respond sent once, no item driven twice, no crash, nothing lost, the budget spent as one worker would', async () => {
    const url = await db.createDatabase('partition');
    const dir = tempDir();
    // 90 items of one pause each (30 plans for a budget of 10), 1.5 s per run, 6 at a time: the batch outlasts the faults.
    const list = budgetItems(90, '1500ms');
    const { questions, policy } = writeBudgetFixture(dir, list);
    const env = { RESQ_API_KEY: 'sim-key-bob', RESQ_LEASE_MS: String(LEASE_MS) };
    const load = await runCliChild(['run', questions, '--db', url, '--batch', 'part', '--policy', policy, '--base-url', sim.url, '--concurrency', '6', '--dry-run'], env);
    expect(load.code, load.stderr).toBe(0);

    const admin = new pg.Client({ connectionString: url });
    admin.on('error', () => {});
    await admin.connect();
    const batchId = (await admin.query<{ id: string }>(`SELECT id FROM batches WHERE name = 'part'`)).rows[0]!.id;
    const watcher = startWatcher(url, batchId);

    const workers: Worker[] = [];
    const warnings: string[] = [];
    const start = async (name: string, viaProxy: boolean): Promise<Worker> => {
      const proxy = viaProxy ? await startTcpProxy(db.port) : null;
      const child = spawnCli(['resume', 'part', '--db', proxy ? proxy.urlFor(url) : url, '--out', join(dir, `out-${name}`), '--json'], env);
      const done = collect(child);
      child.stdout!.on('data', (d: Buffer) => {
        for (const line of d.toString().split('\n')) if (line.includes('"type":"warning"')) warnings.push(`${name}: ${line}`);
      });
      const w: Worker = { name, child, done, proxy, killed: false };
      workers.push(w);
      return w;
    };
    const exited = (w: Worker) => w.child.exitCode !== null || w.child.signalCode !== null;
    const active = `state IN ('submitting', 'running', 'waiting')`;
    const idOf = async (w: Worker): Promise<string | null> => {
      let id: string | null = null;
      await waitFor(async () => {
        id = (await admin.query<{ id: string }>('SELECT id FROM workers WHERE pid = $1', [w.child.pid])).rows[0]?.id ?? null;
        return id !== null || exited(w);
      }, 30_000);
      return id;
    };
    const holding = async (workerId: string): Promise<string[]> =>
      (await admin.query<{ id: string }>(`SELECT id FROM ${ITEMS_NOW} i WHERE batch_id = $1 AND owner = $2 AND ${active}`, [batchId, workerId])).rows.map((r) => r.id);
    const batchOver = async (): Promise<boolean> =>
      (await admin.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${ITEMS_NOW} i WHERE batch_id = $1 AND state IN ('queued', 'submitting', 'running', 'waiting')`, [batchId])).rows[0]!.n === 0;
    /** Waits until the worker holds a few items (the fault then hits work in flight); false once it is gone or the batch is over. */
    const untilHolding = async (w: Worker, workerId: string, n = 2): Promise<boolean> => {
      let ok = false;
      await waitFor(async () => {
        if (exited(w) || (await batchOver())) return true;
        ok = (await holding(workerId)).length >= n;
        return ok;
      }, 60_000);
      return ok && !exited(w);
    };

    await start('a', true);
    await start('c', true);
    const applied: string[] = [];
    const t0 = Date.now();
    const note = (what: string) => applied.push(`${what} (at ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    // The victim: one worker at a time. One that died of a fault (not by our hand) is replaced
    // by a fresh one on a fresh proxy, so every fault of the schedule still hits a worker.
    let victim: Worker | null = null;
    let victimId: string | null = null;
    let victims = 0;
    /** The live victim holding work, once it holds some; null when the batch is over. */
    const victimHolding = async (): Promise<{ w: Worker; id: string; p: TcpProxy } | null> => {
      for (let tries = 0; tries < 3; tries++) {
        if (!victim || exited(victim)) {
          if (await batchOver()) return null;
          victim = await start(`b${++victims}`, true);
          victimId = await idOf(victim);
          if (!victimId) continue;
        }
        if (await untilHolding(victim, victimId!)) return { w: victim, id: victimId!, p: victim.proxy! };
        if (!exited(victim)) return null;
      }
      return null;
    };

    // 1. A partition past the lease: the victim's items are taken over while it cannot see
    // the database; then the network heals and its held queries and COMMITs arrive late.
    // What each fault was shown to do: the victim held items when it was cut off, and another worker took one of them over.
    let heldWhenCut = 0;
    let takenOver = false;
    let heldWhenKilled = 0;
    /** What the proxies counted of the other faults: connections reset, refused, chunks delayed. */
    const shown = { reset: 0, refused: 0, delayed: 0, freshReset: 0 };
    let v = await victimHolding();
    if (v) {
      const held = await holding(v.id);
      v.p.blackhole();
      heldWhenCut = held.length;
      // Past the lease, and until another worker has taken one of them over (or 4 leases); one finished meanwhile is not taken over.
      const id = v.id;
      takenOver = await waitFor(async () => {
        const { rows } = await admin.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${ITEMS_NOW} i WHERE batch_id = $1 AND id = ANY($2) AND owner IS NOT NULL AND owner <> $3`, [batchId, held, id]);
        return rows[0]!.n > 0;
      }, 4 * LEASE_MS);
      await sleep(LEASE_MS / 2);
      v.p.heal();
      note(`${v.w.name} black-holed holding ${held.length} items, healed`);
    }
    // 1b. Shorter and longer partitions, healed each time (1 s inside the lease, 3.5 s and 6 s past it).
    for (const ms of [1000, 3500, 6000]) {
      v = await victimHolding();
      if (!v) break;
      v.p.blackhole();
      await sleep(ms);
      v.p.heal();
      note(`${v.w.name} black-holed ${ms} ms, healed`);
    }
    // 2. Every connection of the victim reset, twice.
    v = await victimHolding();
    if (v) {
      const { w, p } = v;
      await p.until((c) => c.open > 0, 10_000).catch(() => undefined);
      const n = p.reset();
      await waitFor(() => p.counters().open > 0 || exited(w), 5_000);
      const m = p.reset();
      shown.reset = n + m;
      note(`${w.name}: reset ${n} then ${m} connections`);
    }
    // 3. New connections refused for a while (the open ones reset, so it must connect again).
    v = await victimHolding();
    if (v) {
      const { w, p } = v;
      p.refuse();
      await waitFor(() => p.counters().refused >= 1 || exited(w), LEASE_MS);
      // Then what is open is reset: every connection it needs now is refused.
      p.reset();
      await waitFor(() => p.counters().refused >= 3 || exited(w), 2 * LEASE_MS);
      p.pass();
      shown.refused = p.counters().refused;
      note(`${w.name}: refused ${p.counters().refused} connections`);
    }
    // 4. Every chunk both ways delayed 200-800 ms for a while.
    v = await victimHolding();
    if (v) {
      const { w, p } = v;
      const before = p.counters().delayedChunks;
      p.delay(200, 800);
      await waitFor(() => p.counters().delayedChunks - before >= 60 || exited(w), 3 * LEASE_MS);
      p.pass();
      shown.delayed = p.counters().delayedChunks - before;
      note(`${w.name}: delayed ${p.counters().delayedChunks - before} chunks`);
    }
    // 5. Killed while cut off: it holds items it will never finish; a fresh worker joins.
    v = await victimHolding();
    if (v) {
      const { w, p } = v;
      p.blackhole();
      heldWhenKilled = (await holding(v.id)).length;
      await sleep(200);
      w.killed = w.child.kill('SIGKILL');
      await w.done;
      p.heal({ drop: true });
      note(`${w.name}: killed while black-holed`);
    }
    const fresh = await start('d', true);
    // The fresh worker's connections reset once while it works (no partition this time).
    const freshId = await idOf(fresh);
    if (freshId && (await untilHolding(fresh, freshId, 1))) {
      shown.freshReset = fresh.proxy!.reset();
      note('d: reset');
    }
    const results = await Promise.all(workers.map((w) => w.done));
    note('workers done');
    // Whatever is left (a worker that stopped early) is finished by one last resume, on a sound network.
    const last = await runCliChild(['resume', 'part', '--db', url, '--out', join(dir, 'out-last'), '--json'], env);
    await watcher.stop();
    for (const w of workers) await w.proxy?.close();

    try {
      console.log(`partition suite: ${victims} victim(s); faults applied: ${applied.join('; ')}; watcher polls ${watcher.polls()}; warnings:\n${warnings.join('\n')}`);
      // Every fault was in force while the victim held work (else this run proved little).
      expect.soft(applied.filter((a) => !a.startsWith('workers done')), 'faults applied').toHaveLength(9);
      // The partition took effect: the victim held items when cut off, one of them was taken over
      // while it could not see the database, and the victim killed while cut off held items too.
      expect.soft(heldWhenCut, 'items the victim held when black-holed').toBeGreaterThan(0);
      expect.soft(takenOver, 'an item of the black-holed victim taken over by another worker').toBe(true);
      expect.soft(heldWhenKilled, 'items the victim held when killed').toBeGreaterThan(0);
      // The other faults hit connections: some reset, refused and delayed (a proxy that let everything by shows 0).
      for (const [k, n] of Object.entries(shown)) expect.soft(n, `${k}: connections or chunks the fault hit`).toBeGreaterThan(0);
      // ... and fencing refused at least one write of a driver whose item had been claimed again.
      const refused = results.flatMap((r) => r.stdout.split('\n')).filter((l) => STALE_REFUSED.test(l));
      console.log(`partition suite: stale writes refused:\n${refused.join('\n')}`);
      expect.soft(refused.length, 'stale writes refused (a newer fencing token found)').toBeGreaterThan(0);

      // No crash: every worker ended by itself with 0 or by our SIGKILL, and said no internal error.
      for (const [i, r] of results.entries()) {
        const w = workers[i]!;
        const how = `worker ${w.name}: code ${r.code} signal ${r.signal}\n${r.stderr}`;
        if (w.killed) expect.soft(r.signal, how).toBe('SIGKILL');
        else expect.soft(r.code, how).toBe(0);
        expect.soft(r.stderr, how).not.toMatch(/internal error|Unhandled|uncaught/i);
        expect.soft(r.stderr, how).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
      }
      expect.soft(last.code, `last resume\n${last.stderr}`).toBe(0);
      expect.soft(last.stderr).not.toMatch(/internal error|Unhandled/i);

      // Nothing driven twice: no step or run went back, no finished item restarted, no run decided twice (as the watcher saw it).
      expect.soft(watcher.violations, 'watcher').toEqual([]);

      // Exactly one decision per paused run, one paused run per item.
      const perRun = await admin.query<{ run_id: string; item_id: string; n: number }>(
        'SELECT run_id, item_id, count(*)::int AS n FROM decisions WHERE batch_num = (SELECT num FROM batches WHERE id = $1) GROUP BY run_id, item_id ORDER BY item_id',
        [batchId],
      );
      expect.soft(perRun.rows.filter((r) => r.n !== 1), 'runs with other than one decision').toEqual([]);
      expect.soft(perRun.rows.map((r) => r.item_id), 'items with a decision').toEqual(list.map((i) => i.id));

      // The run chain of every item: one run per step, two steps (the pause, then the answer).
      const chain = await admin.query<{ item_id: string; step: number; n: number }>(
        'SELECT item_id, step, count(*)::int AS n FROM runs WHERE batch_num = (SELECT num FROM batches WHERE id = $1) GROUP BY item_id, step',
        [batchId],
      );
      expect.soft(chain.rows.filter((r) => r.n > 1), 'a step with two runs').toEqual([]);
      const steps = new Map<string, number[]>();
      for (const r of chain.rows) steps.set(r.item_id, [...(steps.get(r.item_id) ?? []), r.step].sort());
      for (const it of list) expect.soft(steps.get(it.id), `runs of ${it.id}`).toEqual([0, 1]);

      // Nothing lost: every item completed with one step counted, its answer what its decision said.
      const rows = (
        await admin.query<{ id: string; state: string; step: number; text: string | null }>(`SELECT id, state, step, text FROM ${ITEMS_NOW} i WHERE batch_id = $1 ORDER BY seq`, [batchId])
      ).rows;
      expect.soft(rows.filter((r) => r.state !== 'completed').map((r) => `${r.id} ${r.state}`), 'items not completed').toEqual([]);
      expect.soft(rows.filter((r) => r.step !== 1).map((r) => `${r.id} step ${r.step}`), 'items whose step is not 1').toEqual([]);

      // The budget: what one uninterrupted worker approves, and never more than the budget.
      const decisions = (
        await admin.query<{ item_id: string; run_id: string; tool: string; answer: string; cost: number }>(
          'SELECT item_id, run_id, tool, answer, cost FROM decisions WHERE batch_num = (SELECT num FROM batches WHERE id = $1)',
          [batchId],
        )
      ).rows;
      const approved = decisions.filter((d) => d.tool === 'confirm_scope' && JSON.parse(d.answer).approved === true);
      const total = decisions.reduce((n, d) => n + d.cost, 0);
      const want = expectedApproved(list);
      expect.soft(total, 'cost counted').toBeLessThanOrEqual(BATCH_BUDGET);
      expect.soft({ count: new Set(approved.map((d) => d.run_id)).size, cost: total }, 'plans approved').toEqual(want);
      for (const it of list.filter((i) => i.tool === 'confirm_scope')) {
        const text = rows.find((r) => r.id === it.id)?.text ?? '';
        const yes = approved.some((d) => d.item_id === it.id);
        expect.soft(text, `${it.id}: the agent got the decision recorded`).toContain(yes ? 'confirm_scope: approved' : 'Narrow answer');
      }

      // Every run admitted once and every respond sent once (one run per idempotency key).
      const c = sim.counters();
      for (const it of list) expect.soft(c.admissionsByInput[it.question] ?? 0, `admissions of ${it.id}`).toBe(1);
      expect.soft(c.respondRuns, 'responds').toBe(list.length);
      expect.soft(Object.entries(c.admissionsByKey).filter(([, n]) => n !== 1), 'keys with more than one run').toEqual([]);
      expect.soft(Object.keys(c.admissionsByKey).filter((k) => k.includes('respond')).length, 'respond keys').toBe(list.length);
      // ... and, by the simulator's own record, every key (a run's, a respond's) with one body.
      const ledger = sim.ledger();
      expect.soft(ledger.keys.filter((k) => k.bodies.length !== 1).map((k) => `${k.scope} ${k.key}: ${k.bodies.length} bodies`), 'keys sent with more than one body').toEqual([]);
      expect.soft(ledger.keys.filter((k) => k.scope.endsWith('/respond')).length, 'respond keys at the simulator').toBe(list.length);

      // Every file downloaded somewhere.
      const files = await admin.query<{ id: string; status: string }>(`SELECT id, status FROM files WHERE batch_num = (SELECT num FROM batches WHERE id = $1) AND status <> 'downloaded'`, [batchId]);
      expect.soft(files.rows, 'files not downloaded').toEqual([]);
    } finally {
      await admin.end();
    }
  }, 300_000);
});
