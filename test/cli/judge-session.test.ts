import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeItemId } from '../../src/score/judge-batch.js';
import { JUDGE_HEADER } from '../../src/score/judge-prompt.js';
import { startSim, type Sim } from '../../src/sim/index.js';
import { openStore } from '../../src/store/index.js';
import { tempDir } from '../support/cli.js';
import { runInProcess } from '../support/in-process-cli.js';

// `resq score` with an `agent` scorer on a real batch, against the simulator over HTTP: the
// simulator's judge passes an answer containing the expected text (docs/simulator.md), and
// obeys the judged question's @judge_ directives.

const ROWS = [
  { id: 'right', question: 'Capital of France? Paris @confirm=5', expected: 'paris' },
  { id: 'wrong', question: 'Name a colour: green @confirm=5', expected: 'blue' },
  { id: 'silent', question: 'Say hello @judge_silent', expected: 'hello' },
  { id: 'costly1', question: 'Count: one two three @judge_confirm=6', expected: 'three' },
  { id: 'costly2', question: 'Count again: four five @judge_confirm=6', expected: 'five' },
  { id: 'choosy', question: 'Which way? north @judge_choice', expected: 'north' },
];

describe('resq score with an agent scorer', () => {
  let sim: Sim;
  let dir: string;
  let db: string;
  let env: Record<string, string>;
  let scorers: string;
  const judgings = () => sim.ledger().runs.filter((r) => r.parentId === null && r.input.startsWith(JUDGE_HEADER));

  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 10 });
    env = { RESQ_API_KEY: sim.keys[0] ?? '' };
    dir = tempDir('resq-judge-');
    db = join(dir, 'resq.db');
    const q = join(dir, 'b.jsonl');
    writeFileSync(q, ROWS.map((x) => JSON.stringify(x)).join('\n') + '\n');
    const policy = join(dir, 'policy.yaml');
    writeFileSync(policy, 'confirm_scope:\n  approve_max_cost: 10\n  batch_budget: 20\n  otherwise: decline\n');
    scorers = join(dir, 'scorers.yaml');
    writeFileSync(scorers, 'scorers:\n  - name: judged\n    kind: agent\n    rubric: Does the answer state the expected result?\n');
    const r = await runInProcess(['run', q, '--db', db, '--base-url', sim.url, '--no-download', '--policy', policy], env);
    expect(r.code).toBe(0);
  }, 60_000);
  afterAll(async () => sim.close());

  it('judges each answer by a run of its own: verdicts, a reply with no verdict line unscored with why, judge pauses declined, judging cost apart and counted in the budget', async () => {
    const r = await runInProcess(['score', 'b', '--scorers', scorers, '--db', db, '--base-url', sim.url], env);
    expect(r.stderr).not.toContain('internal error');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('judged: passed 4, failed 1, unscored 1');
    expect(r.stdout).toContain('judging: 6 runs, cost 6 (batch b.judge)');
    // Progress: what judging starts from, on stderr.
    expect(r.stderr).toContain('judging with the agent: 6 of 6 judgings to go (batch b.judge)');
    expect(judgings()).toHaveLength(ROWS.length);

    const store = await openStore(db);
    try {
      const b = (await store.findBatch('b'))!;
      const judge = (await store.findBatch('b.judge'))!;
      const v = async (id: string) => (await store.verdictsOf(b.id, id))[0]!;
      expect(await v('right')).toMatchObject({ pass: true, score: 1, by: expect.stringMatching(/^agent:/) });
      expect(await v('wrong')).toMatchObject({ pass: false, score: 0 });
      expect(await v('silent')).toMatchObject({ pass: null, score: null, reason: expect.stringContaining("the judge's reply has no verdict line") });
      // The answers cost 10 of the budget of 20: one judging plan of 6 fits what is left, the other is declined.
      expect(await store.approvedCost(b.id)).toBe(10);
      expect(await store.approvedCost(judge.id)).toBe(6);
      const version = (await v('right')).version;
      const decided = async (id: string) => (await store.decisionsForItem(judge.id, judgeItemId({ id, attempt: 0 }, { name: 'judged', version }, null)))[0]!;
      expect([(await decided('costly1')).answer.approved, (await decided('costly2')).answer.approved].sort()).toEqual([false, true]);
      // A judge's ask_choice, which the batch's policy has no rule for, is declined.
      expect((await decided('choosy')).answer).toEqual({ decision: 'declined' });
      expect(await v('choosy')).toMatchObject({ pass: true });
    } finally {
      await store.close();
    }
    // Status holds the budget to what both spent, as the decisions were: the judge's part said.
    const status = await runInProcess(['status', 'b', '--db', db], env);
    expect(status.stdout).toContain('cost approved: 16 of the batch budget 20 (80%), 6 of it by its agent judge\n');
    expect(JSON.parse((await runInProcess(['status', 'b', '--db', db, '--json'], env)).stdout)).toMatchObject({ approvedCost: 10, budgetSpent: 16, budget: 20 });
  }, 60_000);

  it('asks nothing again for what has its verdict, and --rescore asks each judging once more', async () => {
    const again = await runInProcess(['score', 'b', '--scorers', scorers, '--db', db, '--base-url', sim.url], env);
    expect(again.code).toBe(0);
    expect(judgings()).toHaveLength(ROWS.length);
    const re = await runInProcess(['score', 'b', '--scorers', scorers, '--db', db, '--base-url', sim.url, '--rescore'], env);
    expect(re.code).toBe(0);
    expect(judgings()).toHaveLength(2 * ROWS.length);
    expect(re.stdout).toContain('judged: passed 4, failed 1, unscored 1');
  }, 60_000);
});

describe('resq run --score with an agent scorer', () => {
  let sim: Sim;
  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 10 });
  });
  afterAll(async () => sim.close());

  it("judges each answer as it completes, through the judge batch under the run's cap, and status says what judging cost", async () => {
    const dir = tempDir('resq-judge-run-');
    const db = join(dir, 'resq.db');
    const q = join(dir, 'c.jsonl');
    writeFileSync(q, [{ id: 'x', question: 'the capital is Paris', expected: 'paris' }, { id: 'y', question: 'the capital is Lyon', expected: 'paris' }].map((r) => JSON.stringify(r)).join('\n') + '\n');
    const scorers = join(dir, 'scorers.yaml');
    writeFileSync(scorers, 'scorers:\n  - name: mentions\n    kind: includes\n  - name: judged\n    kind: agent\n    rubric: Same city?\n');
    const env = { RESQ_API_KEY: sim.keys[0] ?? '' };
    const r = await runInProcess(['run', q, '--db', db, '--base-url', sim.url, '--no-download', '--score', scorers], env);
    expect(r.stderr).not.toContain('internal error');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('judging: 2 runs, cost 0 (batch c.judge)');
    const store = await openStore(db);
    try {
      const b = (await store.findBatch('c'))!;
      const passes = async (id: string) => Object.fromEntries((await store.verdictsOf(b.id, id)).map((v) => [v.scorer, v.pass]));
      expect(await passes('x')).toEqual({ mentions: true, judged: true });
      expect(await passes('y')).toEqual({ mentions: false, judged: false });
    } finally {
      await store.close();
    }
    // With no batch named, status shows the judged batch (not its newer judge batch), with what judging cost.
    const status = await runInProcess(['status', '--db', db], env);
    expect(status.stdout.startsWith("batch c: 2 items")).toBe(true);
    expect(status.stdout).toMatch(/judging: 2 runs, cost 0 \(batch c\.judge\)/);
    expect(JSON.parse((await runInProcess(['status', 'c', '--db', db, '--json'], env)).stdout).judging).toEqual({ runs: 2, cost: 0 });
  }, 60_000);
});
