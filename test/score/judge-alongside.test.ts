import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JUDGE_HEADER } from '../../src/score/judge-prompt.js';
import type { ScorerSpec } from '../../src/score/types.js';
import { runBatchSession, type SessionEvent } from '../../src/runner/session.js';
import { startSim, type Sim } from '../../src/sim/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { tempDir } from '../support/cli.js';
import { testClient, testSettings } from '../support/in-process.js';
import { sharedPgServer, type SharedPg } from '../support/pg-shared.js';

// The agent judge beside a run (score/judge-alongside.ts), against the simulator over HTTP: each
// answer's judging is made as it completes and run under the answers' own cap.

const judged: ScorerSpec = { name: 'judged', kind: 'agent', version: 'a1a1a1a1a1a1a1a1', settings: { rubric: 'Same thing as expected?' } };
const N = 12;
const CAP = 3;
// Every third answer does not contain what is expected: its judging fails it.
const rows = Array.from({ length: N }, (_, i) => ({ id: `q${i}`, question: `Question ${i}: answer${i}`, expected: i % 3 === 0 ? `other${i}` : `answer${i}` }));

describe('the agent judge beside a run (one cap, judged as each answer completes)', () => {
  let sim: Sim;
  let pg: SharedPg;
  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 40 });
    pg = await sharedPgServer();
  });
  afterAll(async () => {
    await sim.close();
    await pg.stop();
  });

  let dbs = 0;
  const adapters: [string, (dir: string) => Promise<Store>][] = [
    ['SQLite', (dir) => openStore(join(dir, 'resq.db'))],
    ['PostgreSQL', async () => openStore(await pg.createDatabase(`judge_alongside_${dbs++}`))],
  ];

  it.each(adapters)('on %s: judgings start while answers are still being sent, never more runs at the service than the cap, every verdict recorded', async (_name, open) => {
    const dir = tempDir();
    const questions = join(dir, 'q.jsonl');
    writeFileSync(questions, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const store = await open(dir);
    const client = testClient(sim);
    sim.resetCounters();
    const runsBefore = sim.ledger().runs.length;
    const events: SessionEvent[] = [];
    try {
      const s = await runBatchSession({
        store,
        source: { questions, settings: { ...testSettings(CAP), scorers: [judged] }, policy: null, baseUrl: sim.url },
        service: client,
        onEvent: (e) => events.push(e),
      });
      expect(s.run?.counts.completed).toBe(N);
      expect(s.judging).toMatchObject({ appended: N, recorded: N, held: 0 });
      expect(s.judging!.judge.name).toBe(`${s.batch.name}.judge`);

      // Answers and judgings took their runs from one cap: the service never saw more than CAP at once…
      const peak = Math.max(...Object.values(sim.counters().peakConcurrentRuns));
      expect(peak).toBeLessThanOrEqual(CAP);
      // The cap was reached, so the bound above was put to the test.
      expect(peak).toBe(CAP);
      // …and judgings were asked while answers were still being sent, not after the last one.
      const created = sim.ledger().runs.slice(runsBefore).filter((r) => r.parentId === null);
      const isJudging = (r: { input: string }) => r.input.startsWith(JUDGE_HEADER);
      expect(created.filter(isJudging)).toHaveLength(N);
      const lastAnswer = created.findLastIndex((r) => !isJudging(r));
      const judgedBeforeLastAnswer = created.slice(0, lastAnswer).filter(isJudging).length;
      expect(judgedBeforeLastAnswer).toBeGreaterThanOrEqual(N / 2);

      // Every verdict is on the judged batch, each by its judging run.
      for (const [i, r] of rows.entries()) {
        const [v] = await store.verdictsOf(s.batch.id, r.id);
        expect(v).toMatchObject({ scorer: 'judged', version: judged.version, pass: i % 3 !== 0 });
        expect(v!.by).toMatch(/^agent:/);
      }
      // The judge's progress came as it went, ending with every judging done.
      const progress = events.filter((e) => e.type === 'judging');
      expect(progress.at(-1)).toMatchObject({ done: N, total: N });
      expect(progress.some((e) => e.type === 'judging' && e.total > 0 && e.total < N)).toBe(true);

      // The summary's status carries the verdicts of the judging done beside the run.
      expect(s.status.scores?.find((x) => x.name === 'judged')).toMatchObject({ passed: N - N / 3, failed: N / 3 });
    } finally {
      await client.close();
      await store.close();
    }
  }, 60_000);

  it.each(adapters)('on %s: answers and judgings deciding at the same time spend one budget together, never more', async (_name, open) => {
    const dir = tempDir();
    const questions = join(dir, 'q.jsonl');
    // Every answer and every judging asks to approve a plan of 6; the budget of 20 holds three.
    writeFileSync(questions, rows.slice(0, 8).map((r) => JSON.stringify({ ...r, question: `${r.question} @confirm=6 @judge_confirm=6` })).join('\n') + '\n');
    const store = await open(dir);
    const client = testClient(sim);
    try {
      const s = await runBatchSession({
        store,
        source: { questions, settings: { ...testSettings(4), scorers: [judged] }, policy: { confirm_scope: { approve_max_cost: 10, batch_budget: 20, otherwise: 'decline' } }, baseUrl: sim.url },
        service: client,
      });
      const judge = s.judging!.judge;
      // Judgings were deciding while answers were: both batches paused on plans.
      expect((await store.batchPauses(judge.id)).length).toBeGreaterThan(0);
      const own = (await store.approvedCost(s.batch.id)) + (await store.approvedCost(judge.id));
      expect(own).toBe(18);
      expect(await store.budgetSpent(s.batch.id)).toBe(18);
      expect(await store.budgetSpent(judge.id)).toBe(18);
    } finally {
      await client.close();
      await store.close();
    }
  }, 60_000);

  it('a batch named like the companion that judges another batch: one clear refusal before any answer is sent', async () => {
    const dir = tempDir();
    const questions = join(dir, 'q.jsonl');
    writeFileSync(questions, rows.slice(0, 2).map((r) => JSON.stringify(r)).join('\n') + '\n');
    const other = join(dir, 'other.jsonl');
    writeFileSync(other, rows.slice(0, 1).map((r) => JSON.stringify(r)).join('\n') + '\n');
    const store = await openStore(join(dir, 'resq.db'));
    const client = testClient(sim);
    try {
      // A plain batch that happens to be called `q.judge`, run to its end first.
      await runBatchSession({ store, source: { questions: other, name: 'q.judge', settings: testSettings(2), policy: null, baseUrl: sim.url }, service: client });
      const runsBefore = sim.ledger().runs.length;
      await expect(
        runBatchSession({ store, source: { questions, name: 'q', settings: { ...testSettings(2), scorers: [judged] }, policy: null, baseUrl: sim.url }, service: client }),
      ).rejects.toThrow('batch "q.judge" exists and does not judge batch "q": rename it to judge this batch with an agent scorer');
      expect(sim.ledger().runs.length).toBe(runsBefore);
    } finally {
      await client.close();
      await store.close();
    }
  }, 60_000);

  it.each(adapters)('on %s: stopped (the signal), the judge stops with the answers; a resume judges what is left, asking nothing twice', async (_name, open) => {
    const dir = tempDir();
    const questions = join(dir, 'q.jsonl');
    // Answers take a while: the stop lands with answers and judgings in flight.
    writeFileSync(questions, rows.map((r) => JSON.stringify({ ...r, question: `${r.question} @duration=300ms @judge_duration=300ms` })).join('\n') + '\n');
    const store = await open(dir);
    const client = testClient(sim);
    const runsBefore = sim.ledger().runs.length;
    const stop = new AbortController();
    try {
      const s = await runBatchSession({
        store,
        source: { questions, settings: { ...testSettings(CAP), scorers: [judged] }, policy: null, baseUrl: sim.url },
        service: client,
        signal: stop.signal,
        onEvent: (e) => {
          // Stopped once the first judging is admitted.
          if (e.type === 'judging' && e.total > 0 && !stop.signal.aborted && sim.ledger().runs.slice(runsBefore).some((r) => r.input.startsWith(JUDGE_HEADER))) stop.abort();
        },
      });
      expect(stop.signal.aborted).toBe(true);
      expect(s.run?.interrupted).toBe(true);
      expect(s.judging?.run.interrupted).toBe(true);
      const judgingsAtStop = sim.ledger().runs.slice(runsBefore).filter((r) => r.input.startsWith(JUDGE_HEADER)).length;
      expect(judgingsAtStop).toBeLessThan(N);

      const again = await runBatchSession({ store, batch: s.batch.name, service: client });
      expect(again.run?.counts.completed).toBe(N);
      expect(again.judging?.recorded).toBeGreaterThan(0);
      const created = sim.ledger().runs.slice(runsBefore).filter((r) => r.parentId === null);
      // Each question and each judging asked once over both sessions.
      expect(created.filter((r) => !r.input.startsWith(JUDGE_HEADER))).toHaveLength(N);
      const judgings = created.filter((r) => r.input.startsWith(JUDGE_HEADER)).map((r) => r.input);
      expect(judgings).toHaveLength(N);
      expect(new Set(judgings).size).toBe(N);
      for (const r of rows) expect(await store.verdictsOf(s.batch.id, r.id)).toHaveLength(1);
    } finally {
      await client.close();
      await store.close();
    }
  }, 60_000);
});
