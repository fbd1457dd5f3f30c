import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BatchRunner, loadBatch, type RunnerEvent } from '../../src/runner/index.js';
import { answerWaiting } from '../support/answer-waiting.js';
import { parsePolicy } from '../../src/config/index.js';
import { startSim, type Sim } from '../../src/sim/index.js';
import { openStore } from '../../src/store/index.js';
import { tempDir } from '../support/cli.js';
import { waitUntil } from '../support/wait-until.js';
import { testClient, testSettings } from '../support/in-process.js';
import { virtualClock } from '../support/virtual-clock.js';

async function setup(sim: Sim, csv: string, concurrency = 4) {
  const dir = tempDir();
  const questions = join(dir, 'q.csv');
  writeFileSync(questions, csv);
  const store = await openStore(join(dir, 'resq.db'));
  const { batch } = await loadBatch({ store, questions, settings: testSettings(concurrency), policy: null, baseUrl: sim.url });
  return { store, batch, client: testClient(sim) };
}

/** A question set of `n` plain questions (`q0`, `q1`, …), each run lasting `duration` when given. */
function questions(n: number, duration?: string): string {
  const rows = Array.from({ length: n }, (_, i) => `q${i},question ${i}${duration ? ` @duration=${duration}` : ''}`);
  return `id,question\n${rows.join('\n')}\n`;
}

describe('BatchRunner', () => {
  let sim: Sim;
  beforeEach(async () => {
    sim = await startSim({ defaultDurationMs: 40 });
  });
  afterEach(async () => sim.close());

  it('holds every pause when there is no policy, and finishes the rest', async () => {
    const { store, batch, client } = await setup(sim, 'id,question\na,plain\nb,needs ok @confirm=1\nc,pick @choice\n');
    const result = await new BatchRunner({ store, client, batch, policy: null }).run();
    expect(result.counts).toMatchObject({ completed: 1, held: 2 });
    expect(sim.counters().respondRuns).toBe(0);
    await client.close();
    await store.close();
  });

  it('its progress ETA leaves out the items waiting behind a held item of their thread, and says how many', async () => {
    // `slow` runs for a minute: the progress that follows the hold comes before the run can end, and stops it.
    const csv = 'id,question,thread\nslow,long one @duration=60s,\nq301,plan @confirm=5,T\nq302,then,T\nq303,last,T\n';
    const { store, batch, client } = await setup(sim, csv);
    let seen: Extract<RunnerEvent, { type: 'progress' }> | null = null;
    const runner: BatchRunner = new BatchRunner({
      store,
      client,
      batch,
      policy: null,
      onEvent: (e) => {
        if (e.type !== 'progress' || e.counts.held !== 1 || seen) return;
        seen = e;
        runner.stop();
      },
    });
    await runner.run();
    expect(seen).toMatchObject({ etaLeavesOut: 2, counts: { held: 1 } });
    await client.close();
    await store.close();
  });

  it('sends a person answer at once while it is still attached', async () => {
    const { store, batch, client } = await setup(sim, 'id,question\nslow,long one @duration=1500ms\nwait,needs ok @confirm=1\n');
    const events: RunnerEvent[] = [];
    let answered: Promise<unknown> | null = null;
    const runner = new BatchRunner({
      store,
      client,
      batch,
      policy: null,
      answeredPollMs: 50,
      onEvent: (e) => {
        events.push(e);
        if (e.type === 'item' && e.id === 'wait' && e.state === 'held') answered = answerWaiting(store, batch, 'wait', { kind: 'approve' });
      },
    });
    const result = await runner.run();
    expect(result.counts).toMatchObject({ completed: 2, held: 0 });
    await answered;
    const item = await store.getItem(batch.id, 'wait');
    expect(item?.text).toContain('confirm_scope: approved');
    expect((await store.decisionsForItem(batch.id, 'wait')).map((d) => d.by)).toEqual(['person']);
    await client.close();
    await store.close();
  });

  it('runs the items of a thread one after another in file order, in one thread', async () => {
    const { store, batch, client } = await setup(
      sim,
      'id,question,thread\nt1,first @duration=80ms,x\nfree,other,\nt2,second,x\nt3,third,x\n',
      8,
    );
    const order: string[] = [];
    const runner = new BatchRunner({
      store,
      client,
      batch,
      policy: null,
      onEvent: (e) => {
        if (e.type === 'item' && e.state === 'running' && e.id.startsWith('t')) order.push(e.id);
      },
    });
    await runner.run();
    expect(order).toEqual(['t1', 't2', 't3']);
    const threads = await Promise.all(['t1', 't2', 't3'].map(async (id) => (await store.getItem(batch.id, id))?.threadId));
    expect(new Set(threads).size).toBe(1);
    expect((await store.getItem(batch.id, 't3'))?.text).toContain('Continuing a thread');
    await client.close();
    await store.close();
  });

  it('answers items the old policy held when resumed with a more generous one', async () => {
    const { store, batch, client } = await setup(sim, 'id,question\npricey,plan @confirm=30\ncheap,plan @confirm=2\n');
    const strict = parsePolicy({ confirm_scope: { approve_max_cost: 5, otherwise: 'hold' } }, 'strict.yaml');
    const first = await new BatchRunner({ store, client, batch, policy: strict }).run();
    expect(first.counts).toMatchObject({ completed: 1, held: 1 });
    const generous = parsePolicy({ confirm_scope: { approve_max_cost: 50, batch_budget: 40 } }, 'generous.yaml');
    const second = await new BatchRunner({ store, client, batch, policy: generous }).run();
    expect(second.counts).toMatchObject({ completed: 2, held: 0 });
    expect(await store.decisionsForItem(batch.id, 'pricey')).toMatchObject([{ by: 'policy', cost: 30, answer: { approved: true } }]);
    expect(await store.approvedCost(batch.id)).toBe(32);
    await client.close();
    await store.close();
  });

  it('keeps later items of a thread waiting behind a held one', async () => {
    const { store, batch, client } = await setup(sim, 'id,question,thread\nh,first @tool=mystery,x\nnext,second,x\n');
    const result = await new BatchRunner({ store, client, batch, policy: null }).run();
    expect(result.counts).toMatchObject({ held: 1, queued: 1 });
    await client.close();
    await store.close();
  });

  it('ends an item in error on a permanent client fault and carries on', async () => {
    const { store, batch, client } = await setup(sim, `id,question\nbig,${'x'.repeat(1_200_000)}\nok,fine\n`);
    const result = await new BatchRunner({ store, client, batch, policy: null }).run();
    expect(result.counts).toMatchObject({ error: 1, completed: 1 });
    const big = await store.getItem(batch.id, 'big');
    expect(big?.error).toMatch(/413|payload/i);
    // The refusal's code: the service's own when its body gave one, else the HTTP status.
    expect(big?.errorCode).toBe('payload_too_large');
    await client.close();
    await store.close();
  });

  it("gives a finished run's slot to the next item before writing its outcome, never going over the cap", async () => {
    const { store, batch, client } = await setup(sim, questions(8), 2);
    const nextStateWhenRecorded: string[] = [];
    const reads: Promise<void>[] = [];
    const result = await new BatchRunner({
      store,
      client,
      batch,
      policy: null,
      onEvent: (e) => {
        // q0 and q1 start together; the n-th item to finish hands its slot to q(n+2).
        if (e.type !== 'item' || e.state !== 'completed') return;
        // The SQLite adapter reads at the call, so this is the database as the event saw it.
        reads.push(
          store.listItems(batch.id).then((items) => {
            const n = items.filter((it) => it.state === 'completed').length;
            const next = items.find((it) => it.id === `q${n + 1}`);
            if (next) nextStateWhenRecorded.push(next.state);
          }),
        );
      },
    }).run();
    await Promise.all(reads);
    expect(result.counts.completed).toBe(8);
    expect(nextStateWhenRecorded).toHaveLength(6);
    expect(nextStateWhenRecorded).not.toContain('queued');
    expect(sim.counters().peakConcurrentRuns).toEqual({ [Object.keys(sim.counters().peakConcurrentRuns)[0]!]: 2 });
    expect(sim.counters().runsAdmitted).toBe(8);
    await client.close();
    await store.close();
  });

  it('stops on stop(): nothing new is admitted and state stays resumable', async () => {
    const { store, batch, client } = await setup(sim, questions(20, '300ms'), 2);
    const runner = new BatchRunner({
      store,
      client,
      batch,
      policy: null,
      onEvent: (e) => {
        if (e.type === 'item' && e.state === 'running') runner.stop();
      },
    });
    const result = await runner.run();
    expect(result.interrupted).toBe(true);
    expect(sim.counters().runsAdmitted).toBeLessThanOrEqual(2);
    const again = await new BatchRunner({ store, client, batch, policy: null }).run();
    expect(again.counts.completed).toBe(20);
    expect(sim.counters().runsAdmitted).toBe(20);
    await client.close();
    await store.close();
  });

  it('re-attaches runs that ended while nobody followed them with a read, not a stream', async () => {
    const { store, batch, client } = await setup(sim, questions(6, '100ms'), 3);
    let admitted = 0;
    const runner = new BatchRunner({
      store,
      client,
      batch,
      policy: null,
      onEvent: (e) => {
        if (e.type === 'item' && e.state === 'running' && ++admitted === 3) runner.stop();
      },
    });
    await runner.run();
    const running = (await store.listItems(batch.id)).filter((i) => i.state === 'running');
    expect(running.length).toBeGreaterThan(0);
    // Those runs end at the service while no one follows them.
    const atService = (): string[] => sim.ledger().runs.filter((r) => running.some((i) => i.runId === r.id)).map((r) => r.status);
    await waitUntil(() => atService().length === running.length && !atService().includes('running'), 'the admitted runs ended at the service');
    const streamsBefore = sim.counters().requestsByRoute['GET /runs/:id/events'] ?? 0;
    const readsBefore = sim.counters().requestsByRoute['GET /runs/:id'] ?? 0;
    const again = await new BatchRunner({ store, client, batch, policy: null }).run();
    expect(again.counts.completed).toBe(6);
    const c = sim.counters().requestsByRoute;
    // One read per re-attached run; streams only for the runs admitted in this life.
    expect((c['GET /runs/:id'] ?? 0) - readsBefore).toBe(running.length);
    expect((c['GET /runs/:id/events'] ?? 0) - streamsBefore).toBe(6 - 3);
    await client.close();
    await store.close();
  });

  it('sends progress at most every 200 ms of its clock however many runs end, and none after the end event', async () => {
    const { store, batch, client } = await setup(sim, questions(40, '30ms'), 20);
    // The runner's own clock, virtual: its throttle is measured in this time, not the wall's.
    const clock = virtualClock();
    const seen: { type: string; at: number }[] = [];
    const result = await new BatchRunner({ store, client, batch, policy: null, clock, onEvent: (e) => seen.push({ type: e.type, at: clock.now() }) }).run();
    expect(result.counts.completed).toBe(40);
    const progress = seen.filter((e) => e.type === 'progress').map((e) => e.at);
    expect(progress.length).toBeGreaterThan(1);
    for (let i = 1; i < progress.length; i++) expect(progress[i]! - progress[i - 1]!).toBeGreaterThanOrEqual(200);
    // A progress still waiting for its turn would come within a few turns of the loop (a
    // virtual sleep resolves on the next one), and more virtual time passes for any sleeper.
    for (let i = 0; i < 5; i++) {
      clock.advance(1000);
      await new Promise((r) => setImmediate(r));
    }
    expect(seen.at(-1)!.type).toBe('end');
    await client.close();
    await store.close();
  });
});
