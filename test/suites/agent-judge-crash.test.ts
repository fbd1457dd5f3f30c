import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JUDGE_HEADER } from '../../src/score/judge-prompt.js';
import { startSim, type Sim } from '../../src/sim/index.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { collect, runCliChild, spawnCli, tempDir } from '../support/cli.js';

// Crash suite for the agent judge: a real `resq score` child process SIGKILLed while its
// judgings are at the service, then run again. The simulator's ledger must show each
// judging question asked once, and every item must end with the right verdict.

const N = 12;
const rows = Array.from({ length: N }, (_, i) => ({
  id: `q${i}`,
  // Each judging takes a while, so the kill lands with judgings admitted and none ended.
  question: `Question ${i} about answer${i} @judge_duration=600ms`,
  expected: i % 3 === 0 ? `other${i}` : `answer${i}`,
}));

describe('the agent judge killed -9 mid-judging', () => {
  let sim: Sim;
  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 20 });
  });
  afterAll(async () => sim.close());

  const judgings = () => sim.ledger().runs.filter((r) => r.parentId === null && r.input.startsWith(JUDGE_HEADER));

  it('resumed, asks each judging question once and records every verdict', async () => {
    const dir = tempDir('resq-judge-crash-');
    const db = join(dir, 'resq.db');
    const questions = join(dir, 'q.jsonl');
    writeFileSync(questions, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const scorers = join(dir, 'scorers.yaml');
    writeFileSync(scorers, 'scorers:\n  - name: judged\n    kind: agent\n    rubric: Does the answer name the expected thing?\n');
    const env = { RESQ_API_KEY: sim.keys[0] };
    const ran = await runCliChild(['run', questions, '--db', db, '--batch', 'b', '--base-url', sim.url, '--no-download', '--concurrency', '4'], env);
    expect(ran.code).toBe(0);

    const args = ['score', 'b', '--scorers', scorers, '--db', db, '--base-url', sim.url];
    const child = spawnCli(args, env);
    const done = collect(child);
    // Killed once some judgings are at the service.
    let atKill: { submitted: number; ended: number } | null = null;
    const poll = setInterval(() => {
      const j = judgings();
      if (j.length >= 2 && atKill === null) {
        child.kill('SIGKILL');
        atKill = { submitted: j.length, ended: j.filter((r) => r.status !== 'running').length };
      }
    }, 5);
    const killed = await done;
    clearInterval(poll);
    expect(killed.signal).toBe('SIGKILL');
    // Mid-judging: some judgings were asked, and not all had ended.
    expect(atKill!.submitted).toBeGreaterThan(0);
    expect(atKill!.ended).toBeLessThan(atKill!.submitted);
    const before = SqliteStore.open(db);
    try {
      const judge = (await before.findBatch('b.judge'))!;
      expect(judge.totalItems).toBe(N);
      const counts = await before.itemCounts(judge.id);
      expect(counts.completed).toBeLessThan(N);
    } finally {
      await before.close();
    }

    const again = await runCliChild(args, env);
    expect(again.stderr).not.toContain('internal error');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`judged: passed ${N - N / 3}, failed ${N / 3}, unscored 0`);
    expect(again.stdout).toMatch(/judging: 12 runs, cost 0 \(batch b\.judge\)/);

    // Each judging question was asked exactly once.
    const asked = judgings().map((r) => r.input);
    expect(asked).toHaveLength(N);
    expect(new Set(asked).size).toBe(N);
    for (const r of rows) expect(asked.filter((q) => q.includes(`Question ${r.id.slice(1)} about`))).toHaveLength(1);

    const store = SqliteStore.open(db);
    try {
      const b = (await store.findBatch('b'))!;
      for (const [i, r] of rows.entries()) {
        const [v] = await store.verdictsOf(b.id, r.id);
        expect(v).toMatchObject({ scorer: 'judged', pass: i % 3 !== 0 });
        expect(v!.by).toMatch(/^agent:/);
      }
    } finally {
      await store.close();
    }
  }, 120_000);

  it('run --score killed -9 with answers and judgings both in flight: resumed, asks each question and each judging once, every verdict recorded', async () => {
    const dir = tempDir('resq-judge-run-crash-');
    const db = join(dir, 'resq.db');
    const questions = join(dir, 'q.jsonl');
    // Answers take a while too: the kill lands while both are at the service.
    writeFileSync(questions, rows.map((r) => JSON.stringify({ ...r, id: `r${r.id}`, question: `${r.question.replace('Question', 'Run question')} @duration=400ms` })).join('\n') + '\n');
    const scorers = join(dir, 'scorers.yaml');
    writeFileSync(scorers, 'scorers:\n  - name: judged\n    kind: agent\n    rubric: Does the answer name the expected thing?\n');
    const env = { RESQ_API_KEY: sim.keys[0] };
    const runsBefore = sim.ledger().runs.length;
    const mine = () => sim.ledger().runs.slice(runsBefore).filter((r) => r.parentId === null);
    const isJudging = (r: { input: string }) => r.input.startsWith(JUDGE_HEADER);

    const child = spawnCli(['run', questions, '--db', db, '--batch', 'rb', '--base-url', sim.url, '--no-download', '--concurrency', '4', '--score', scorers], env);
    const done = collect(child);
    let atKill: { judgingsRunning: number; answersRunning: number } | null = null;
    const poll = setInterval(() => {
      const runs = mine();
      const judgingsRunning = runs.filter((r) => isJudging(r) && r.status === 'running').length;
      const answersRunning = runs.filter((r) => !isJudging(r) && r.status === 'running').length;
      if (atKill === null && judgingsRunning > 0 && answersRunning > 0) {
        child.kill('SIGKILL');
        atKill = { judgingsRunning, answersRunning };
      }
    }, 5);
    const killed = await done;
    clearInterval(poll);
    expect(killed.signal).toBe('SIGKILL');
    // Both were in flight at once at the kill (how many answers were sent by then depends on this machine's load).
    expect(atKill!.judgingsRunning).toBeGreaterThan(0);
    expect(atKill!.answersRunning).toBeGreaterThan(0);

    const again = await runCliChild(['resume', 'rb', '--db', db, '--base-url', sim.url], env);
    expect(again.stderr).not.toContain('internal error');
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/judging: 12 runs, cost 0 \(batch rb\.judge\)/);

    const asked = mine();
    expect(asked.filter((r) => !isJudging(r))).toHaveLength(N);
    const judgings = asked.filter(isJudging).map((r) => r.input);
    expect(judgings).toHaveLength(N);
    expect(new Set(judgings).size).toBe(N);
    const store = SqliteStore.open(db);
    try {
      const b = (await store.findBatch('rb'))!;
      for (const [i, r] of rows.entries()) {
        const verdicts = await store.verdictsOf(b.id, `r${r.id}`);
        expect(verdicts).toHaveLength(1);
        expect(verdicts[0]).toMatchObject({ scorer: 'judged', pass: i % 3 !== 0 });
      }
    } finally {
      await store.close();
    }
  }, 120_000);
});
