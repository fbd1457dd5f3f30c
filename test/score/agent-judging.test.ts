import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPolicyFile } from '../../src/config/index.js';
import { judgeByAgent } from '../../src/score/agent-judging.js';
import { judgeBatchName, judgeItemId, judgingCost } from '../../src/score/judge-batch.js';
import { JUDGE_HEADER } from '../../src/score/judge-prompt.js';
import type { ScorerSpec } from '../../src/score/types.js';
import { runBatchSession } from '../../src/runner/session.js';
import { startSim, type Sim } from '../../src/sim/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { tempDir } from '../support/cli.js';
import { testClient, testSettings } from '../support/in-process.js';
import { sharedPgServer, type SharedPg } from '../support/pg-shared.js';

const judged: ScorerSpec = { name: 'judged', kind: 'agent', version: 'v1v1v1v1v1v1v1v1', settings: { rubric: 'Same result as expected?' } };

// Each question's expected answer, and what its judging shows.
const ROWS: [id: string, question: string, expected: string][] = [
  ['right', 'Capital of France? Paris @confirm=5', 'paris'],
  ['wrong', 'Name a colour: green @confirm=5', 'blue'],
  ['silent', 'Say hello @judge_silent', 'hello'],
  ['costly1', 'Count: one two three @judge_confirm=6', 'three'],
  ['costly2', 'Count again: four five @judge_confirm=6', 'five'],
  ['choosy', 'Which way? north @judge_choice', 'north'],
];

describe('judgeByAgent (the service as judge, against the simulator)', () => {
  let sim: Sim;
  let pg: SharedPg;
  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 30 });
    pg = await sharedPgServer();
  });
  afterAll(async () => {
    await sim.close();
    await pg.stop();
  });

  const adapters: [string, (dir: string) => Promise<Store>][] = [
    ['SQLite', (dir) => openStore(join(dir, 'resq.db'))],
    ['PostgreSQL', async () => openStore(await pg.createDatabase('agent_judging'))],
  ];

  it.each(adapters)('on %s: judges each completed item in a companion batch: verdicts, a no-verdict reply unscored, pauses declined, judging cost apart and counted in the budget both ways', async (_name, open) => {
    const dir = tempDir();
    const questions = join(dir, 'q.jsonl');
    const write = (rows: string[][]) => writeFileSync(questions, rows.map(([id, question, expected]) => JSON.stringify({ id, question, expected })).join('\n') + '\n');
    write(ROWS);
    const policyFile = join(dir, 'policy.yaml');
    writeFileSync(policyFile, 'confirm_scope:\n  approve_max_cost: 10\n  batch_budget: 20\n  otherwise: decline\n');
    const store = await open(dir);
    const client = testClient(sim);
    try {
      const s = await runBatchSession({ store, source: { questions, settings: testSettings(4), policy: await loadPolicyFile(policyFile), baseUrl: sim.url }, service: client });
      const parent = s.batch;
      expect(await store.approvedCost(parent.id)).toBe(10);
      const runsBefore = sim.ledger().runs.length;

      const progress: number[] = [];
      const r = await judgeByAgent({ store, parent, scorers: [judged], service: client, onProgress: (p) => progress.push(p.done) });
      expect(r.appended).toBe(ROWS.length);
      expect(r.judge.name).toBe(judgeBatchName(parent));
      expect(r.judge.settings.judgeOf).toBe(parent.id);
      expect(progress.at(-1)).toBe(ROWS.length);

      const verdict = async (id: string) => (await store.verdictsOf(parent.id, id))[0]!;
      expect(await verdict('right')).toMatchObject({ scorer: 'judged', version: judged.version, pass: true, score: 1 });
      expect((await verdict('right')).by).toMatch(/^agent:/);
      expect(await verdict('wrong')).toMatchObject({ pass: false, score: 0, reason: expect.stringContaining('does not contain') });
      expect(await verdict('silent')).toMatchObject({ pass: null, score: null, reason: expect.stringMatching(/^the judge's reply has no verdict line/) });
      expect(await verdict('choosy')).toMatchObject({ pass: true });

      // Each judging was a new run in a new thread, asked with the judging prompt.
      const asked = sim.ledger().runs.slice(runsBefore).filter((x) => x.parentId === null);
      expect(asked).toHaveLength(ROWS.length);
      expect(asked.every((x) => x.input.startsWith(JUDGE_HEADER))).toBe(true);
      expect(new Set(asked.map((x) => x.threadId)).size).toBe(ROWS.length);

      // The parent had 20 - 10 = 10 left of the budget both spend from: one judging plan of 6 approved, the other declined; the choice (no rule) declined.
      expect(r.judge.policy).toMatchObject({ confirm_scope: { approve_max_cost: 10, batch_budget: 20, otherwise: 'decline' } });
      const decisions = await Promise.all(['costly1', 'costly2', 'choosy'].map(async (id) => (await store.decisionsForItem(r.judge.id, judgeItemId({ id, attempt: 0 }, judged, null)))[0]!));
      expect(decisions.map((d) => d.by)).toEqual(['policy', 'policy', 'policy']);
      expect(decisions.slice(0, 2).map((d) => d.answer.approved).sort()).toEqual([false, true]);
      expect(decisions[2]!.answer).toEqual({ decision: 'declined' });
      expect(await store.approvedCost(parent.id)).toBe(10);
      expect(await judgingCost(store, parent)).toEqual({ runs: ROWS.length, cost: 6 });
      expect(await store.budgetSpent(parent.id)).toBe(16);

      // Started again, nothing is asked again.
      const again = await judgeByAgent({ store, parent, scorers: [judged], service: client });
      expect(again.appended).toBe(0);
      expect(sim.ledger().runs.slice(runsBefore).filter((x) => x.input.startsWith(JUDGE_HEADER) && x.parentId === null)).toHaveLength(ROWS.length);

      // The batch's own later pauses see what judging spent: 10 + 6 spent of 20, so a plan of 5 no longer fits.
      write([...ROWS, ['later', 'Another plan @confirm=5', 'plan']]);
      await runBatchSession({ store, source: { questions, settings: testSettings(4), policy: null, baseUrl: sim.url, append: true }, service: client });
      const [later] = await store.decisionsForItem(parent.id, 'later');
      expect(later).toMatchObject({ by: 'policy', answer: { approved: false }, reason: expect.stringContaining('over batch_budget 20') });
      expect(await store.approvedCost(parent.id)).toBe(10);
    } finally {
      await client.close();
      await store.close();
    }
  }, 60_000);

});
