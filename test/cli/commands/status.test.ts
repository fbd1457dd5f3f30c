import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Verdict } from '../../../src/score/types.js';
import { startSim, type Sim } from '../../../src/sim/index.js';
import { SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { tempDir } from '../../support/cli.js';
import { runInProcess } from '../../support/in-process-cli.js';

const verdict = (scorer: string, pass: boolean | null, reason = pass === null ? 'no number in the answer' : 'ok'): Verdict => ({
  scorer, version: 'v1', pass, score: pass === null ? null : pass ? 1 : 0, reason, scoredAt: '2026-01-01T00:00:00.000Z', by: 'includes',
});

describe('resq status: the pass rates of the scorers', () => {
  let sim: Sim;
  let db: string;
  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 20 });
    const dir = tempDir();
    const q = join(dir, 'q.jsonl');
    writeFileSync(q, Array.from({ length: 12 }, (_, i) => JSON.stringify({ id: `q${i}`, question: `what is ${i}?` })).join('\n'));
    db = join(dir, 'r.db');
    const r = await runInProcess(['run', q, '--db', db, '--batch', 'judged', '--no-download'], { RESQ_API_KEY: sim.keys[0], RESQ_BASE_URL: sim.url });
    expect(r.code).toBe(0);
    // Verdicts as a scorer records them: mentions passes 8 and fails 2 of the 12 answers (2 not judged);
    // value judges one and cannot judge another.
    const store = await SqliteStore.open(db);
    const batch = (await store.findBatch('judged'))!;
    for (let i = 0; i < 10; i++) await store.recordVerdicts(batch.id, `q${i}`, [verdict('mentions', i < 8)]);
    await store.recordVerdicts(batch.id, 'q0', [verdict('value', true)]);
    await store.recordVerdicts(batch.id, 'q1', [verdict('value', null)]);
    await store.close();
  });
  afterAll(async () => sim.close());

  it('prints each scorer with passed, failed, its pass rate and 95% Wilson interval, and unscored apart', async () => {
    const r = await runInProcess(['status', 'judged', '--db', db]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    const at = lines.indexOf('scores (pass rate over the judged items, 95% Wilson interval; unscored apart):');
    expect(at).toBeGreaterThan(0);
    // 8 of 10: Wilson 49.0–94.3%; 1 of 1: 20.7–100%.
    expect(lines.slice(at + 1, at + 3)).toEqual([
      '  mentions: 8 passed, 2 failed — 80.0% (95% CI 49.0–94.3%); 2 unscored',
      '  value: 1 passed, 0 failed — 100.0% (95% CI 20.7–100.0%); 11 unscored',
    ]);
  });

  it('gives the same figures in --json: scores [{name, version, passed, failed, unscored, passRate, low, high}]', async () => {
    const r = await runInProcess(['status', 'judged', '--db', db, '--json']);
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout) as { scores: Record<string, unknown>[] };
    expect(s.scores).toHaveLength(2);
    expect(s.scores[0]).toMatchObject({ name: 'mentions', version: 'v1', passed: 8, failed: 2, unscored: 2, passRate: 0.8 });
    expect(s.scores[0]!.low).toBeCloseTo(0.4902, 3);
    expect(s.scores[0]!.high).toBeCloseTo(0.9433, 3);
    expect(s.scores[1]).toMatchObject({ name: 'value', passed: 1, failed: 0, unscored: 11, passRate: 1, high: 1 });
    expect(s.scores[1]!.low).toBeCloseTo(0.2065, 3);
  });

  it("shows the scorers the batch's settings name, at their versions: verdicts of another version are not counted, a scorer that judged nothing yet is said so", async () => {
    const dir = tempDir();
    const q = join(dir, 'q.jsonl');
    writeFileSync(q, ['a', 'b', 'c'].map((id) => JSON.stringify({ id, question: `${id}?` })).join('\n'));
    const r0 = await runInProcess(['run', q, '--db', db, '--batch', 'named', '--no-download'], { RESQ_API_KEY: sim.keys[0], RESQ_BASE_URL: sim.url });
    expect(r0.code).toBe(0);
    const store = await SqliteStore.open(db);
    const batch = (await store.findBatch('named'))!;
    // The batch's scorers as `--score` stores them: mentions at v2 (its settings changed since v1), and exact.
    const scorers = [
      { name: 'mentions', kind: 'includes' as const, version: 'v2', settings: {} },
      { name: 'exact', kind: 'exact' as const, version: 'e1', settings: {} },
    ];
    await store.updateBatchSettings(batch.id, { ...batch.settings, scorers }, batch.policy, batch.baseUrl);
    await store.recordVerdicts(batch.id, 'a', [verdict('mentions', true), { ...verdict('mentions', false), version: 'v2' }]);
    await store.recordVerdicts(batch.id, 'b', [{ ...verdict('mentions', true), version: 'v2' }]);
    await store.close();
    const r = await runInProcess(['status', 'named', '--db', db]);
    expect(r.stdout).toContain('  mentions: 1 passed, 1 failed — 50.0% (95% CI 9.5–90.5%); 1 unscored\n  exact: 0 passed, 0 failed — no verdict yet; 3 unscored');
    const s = JSON.parse((await runInProcess(['status', 'named', '--db', db, '--json'])).stdout) as { scores: unknown[] };
    expect(s.scores).toEqual([
      { name: 'mentions', version: 'v2', passed: 1, failed: 1, unscored: 1, passRate: 0.5, low: expect.closeTo(0.0945, 3), high: expect.closeTo(0.9055, 3) },
      { name: 'exact', version: 'e1', passed: 0, failed: 0, unscored: 3, passRate: null, low: null, high: null },
    ]);
  });

  it('says nothing of scores for a batch nobody judged', async () => {
    const dir = tempDir();
    const q = join(dir, 'q.jsonl');
    writeFileSync(q, JSON.stringify({ id: 'a', question: 'plain?' }));
    const r0 = await runInProcess(['run', q, '--db', db, '--batch', 'plain', '--no-download'], { RESQ_API_KEY: sim.keys[0], RESQ_BASE_URL: sim.url });
    expect(r0.code).toBe(0);
    const r = await runInProcess(['status', 'plain', '--db', db]);
    expect(r.stdout).not.toContain('scores');
    expect(JSON.parse((await runInProcess(['status', 'plain', '--db', db, '--json'])).stdout).scores).toEqual([]);
  });
});
