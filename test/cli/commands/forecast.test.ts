import Database from 'better-sqlite3';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Z90 } from '../../../src/forecast/estimate.js';
import { startSim, type Sim } from '../../../src/sim/index.js';
import { tempDir } from '../../support/cli.js';
import { runInProcess } from '../../support/in-process-cli.js';

// A reference batch that ran the first 5 of 10 questions (`run --limit 5`) with plans of known
// cost: 2, 4, 6 and 8 approved by the policy, 20 held (over approve_max_cost). The forecast of
// the other 5 is checked against figures worked out by hand.
const POLICY = `confirm_scope:
  approve_max_cost: 10
  batch_budget: 100
  otherwise: hold
`;

interface Report {
  questions: number;
  sample: number;
  rest: boolean;
  cap: number;
  match: 'name' | 'content' | 'none';
  learnedFrom: { name: string; questions: number }[];
  now: { spent: number; heldPauses: number; heldCost: number };
  spent: number;
  batchCost: { estimate: number; low: number; high: number };
  costPerQuestion: { median: number; p90: number; mean: number };
  totalCost: { estimate: number; low: number; high: number };
  budget: { budget: number; share: number; chanceOver: number } | null;
  held: { estimate: number; low: number; high: number; perQuestion: number };
  wallSeconds: { estimate: number; low: number; high: number; waves: number };
}

/** The median of what the runs of each item that ran took (each run's recorded length: the service's own times), read straight from the database. */
function medianRunSeconds(db: string): number {
  const d = new Database(db, { readonly: true });
  const secs = (
    d
      .prepare(
        `SELECT sum(r.seconds) AS s FROM runs r JOIN items i ON i.batch_num = r.batch_num AND i.id = r.item_id
         WHERE i.state <> 'queued' GROUP BY r.item_id`,
      )
      .pluck()
      .all() as number[]
  ).sort((a, b) => a - b);
  d.close();
  return secs[Math.floor(secs.length / 2)]!;
}

describe('resq forecast', () => {
  let sim: Sim;
  let dir: string;
  let db: string;
  let q: string;
  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 20 });
    const env = { RESQ_API_KEY: sim.keys[0] ?? '', RESQ_BASE_URL: sim.url };
    dir = tempDir();
    db = join(dir, 'r.db');
    q = join(dir, 'q.csv');
    const costs = [2, 4, 6, 8, 20, 1, 1, 1, 1, 1];
    writeFileSync(q, `id,question\n${costs.map((c, i) => `r${i},plan @duration=50ms @confirm=${c}`).join('\n')}\n`);
    writeFileSync(join(dir, 'policy.yaml'), POLICY);
    const r = await runInProcess(['run', q, '--db', db, '--batch', 'fb', '--policy', join(dir, 'policy.yaml'), '--limit', '5'], env);
    expect(r.code).toBe(3);
  });
  afterAll(async () => sim.close());

  it('forecasts the rest of the file from the batch that ran its first --limit N, against hand-computed figures', async () => {
    const r = await runInProcess(['forecast', q, '--from', 'fb', '--cap', '2', '--db', db, '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const f = JSON.parse(r.stdout) as Report;
    expect(f).toMatchObject({ questions: 5, sample: 5, rest: true, cap: 2 });
    // Costs per question that ran, as the batch's own policy approves them: 2, 4, 6, 8 and 0 (held):
    // median 4, p90 6 + 0.6 × 2 = 7.2, mean 4.
    expect(f.costPerQuestion.median).toBe(4);
    expect(f.costPerQuestion.p90).toBeCloseTo(7.2, 9);
    expect(f.costPerQuestion.mean).toBe(4);
    // Total: 5 × 4 = 20, spread ± Z90 × √10 (sample sd) × √(5 + 5² / 5) (5 draws, and the mean itself from 5) = ± 10 Z90.
    expect(f.totalCost.estimate).toBe(20);
    expect(f.totalCost.low).toBeCloseTo(20 - 10 * Z90, 6);
    expect(f.totalCost.high).toBeCloseTo(20 + 10 * Z90, 6);
    // The batch already spent 2 + 4 + 6 + 8 = 20 and holds the plan of 20: its total starts from 20.
    expect(f.now).toEqual({ spent: 20, heldPauses: 1, heldCost: 20 });
    expect(f.spent).toBe(20);
    expect(f.batchCost.estimate).toBe(40);
    expect(f.batchCost.low).toBeCloseTo(40 - 10 * Z90, 6);
    expect(f.budget).toMatchObject({ budget: 100, share: 0.4 });
    expect(f.budget!.chanceOver).toBeLessThan(1e-6);
    // One held pause in 5 questions: 5 × 0.2 = 1, spread ± Z90 × √0.2 × √10 = ± Z90 √2.
    expect(f.held.perQuestion).toBe(0.2);
    expect(f.held.estimate).toBe(1);
    expect(f.held.low).toBe(0);
    expect(f.held.high).toBeCloseTo(1 + Z90 * Math.SQRT2, 6);
    expect(f).toMatchObject({ match: 'name', learnedFrom: [{ name: 'fb', questions: 5 }] });
    // ⌈5 / 2⌉ = 3 waves of the median time the runs of a question took.
    expect(f.wallSeconds.waves).toBe(3);
    expect(f.wallSeconds.estimate).toBeCloseTo(3 * medianRunSeconds(db), 3);
    expect(f.wallSeconds.estimate).toBeGreaterThanOrEqual(3 * 0.05);
    expect(f.wallSeconds.low).toBeLessThanOrEqual(f.wallSeconds.estimate);
    expect(f.wallSeconds.high).toBeGreaterThanOrEqual(f.wallSeconds.estimate);
  });

  it('takes another policy, budget and limit, and says every figure as an estimate with its spread', async () => {
    writeFileSync(join(dir, 'open.yaml'), 'confirm_scope:\n  approve_max_cost: 50\n');
    const j = JSON.parse((await runInProcess(['forecast', q, '--from', 'fb', '--policy', join(dir, 'open.yaml'), '--budget', '25', '--limit', '2', '--db', db, '--json'])).stdout) as Report;
    expect(j.questions).toBe(2);
    // Nothing the open policy holds, and it approves the plan of 20 too: costs 2, 4, 6, 8, 20 (mean 8, median 6);
    // no batch_budget in it: the budget given.
    expect(j.held).toMatchObject({ estimate: 0, perQuestion: 0 });
    expect(j.costPerQuestion).toMatchObject({ median: 6, mean: 8 });
    expect(j.costPerQuestion.p90).toBeCloseTo(15.2, 9);
    expect(j.totalCost.estimate).toBe(16);
    // What the batch really spent (20) counts whatever the policy: (20 + 16) / 25.
    expect(j.budget).toMatchObject({ budget: 25, share: 36 / 25 });
    const t = await runInProcess(['forecast', q, '--from', 'fb', '--cap', '2', '--db', db]);
    expect(t.code).toBe(0);
    const lines = t.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`forecast (an estimate, p10–p90 in brackets) for the 5 questions of ${q} that batch fb has not run yet, from 5 questions that ran in batch fb; policy: batch fb's own`);
    expect(lines[1]).toBe('  learned from: batch fb (5 questions that ran)');
    expect(lines[2]).toBe("  batch fb already spent 20 and holds 1 pause for a person (cost 20 if approved, not counted below); the batch's total starts from 20");
    expect(lines[3]).toBe('  cost per question: median 4, 90th percentile 7.2 (mean 4)');
    expect(lines[4]).toBe('  total cost: about 20 (7.18–32.8); with what is spent, the batch about 40 (27.2–52.8)');
    // The forecasts above were kept: the last of batch fb (its rest) is said, and that the batch has not ended.
    expect(lines[5]).toMatch(/^ {4}last forecast of batch fb \(made \d{4}-\d\d-\d\d \d\d:\d\d, from batch fb\): the batch has not ended yet$/);
    expect(lines[6]).toBe('  budget 100: about 40% of it (27%–53%); chance of going over: 0%');
    expect(lines[7]).toBe('  held for a person: about 1 pause (0–2.81; 0.2 per question)');
    expect(lines[8]).toMatch(/^ {2}wall time at cap 2: about \d+s \(\d+s–\d+s\): 3 waves of 2 × \d+s a question \(median\); the time people take on held pauses comes on top$/);
  });

  it('forecasts a rerun of the whole file once the reference ran all of it', async () => {
    const small = join(dir, 'small.csv');
    writeFileSync(small, 'id,question\ns0,plan @confirm=3\ns1,plan @confirm=5\n');
    const env = { RESQ_API_KEY: sim.keys[0] ?? '', RESQ_BASE_URL: sim.url };
    expect((await runInProcess(['run', small, '--db', db, '--batch', 'whole', '--policy', join(dir, 'policy.yaml')], env)).code).toBe(0);
    const f = JSON.parse((await runInProcess(['forecast', small, '--from', 'whole', '--db', db, '--json'])).stdout) as Report;
    expect(f).toMatchObject({ questions: 2, rest: false, sample: 2 });
    expect(f.totalCost.estimate).toBe(8);
  });

  it('forecasts a whole other file from a finished batch', async () => {
    const other = join(dir, 'other.jsonl');
    writeFileSync(other, `${Array.from({ length: 7 }, (_, i) => JSON.stringify({ id: `o${i}`, question: 'something else' })).join('\n')}\n`);
    const f = JSON.parse((await runInProcess(['forecast', other, '--from', 'fb', '--db', db, '--json'])).stdout) as Report;
    expect(f).toMatchObject({ questions: 7, rest: false });
    expect(f.totalCost.estimate).toBe(28);
  });

  it('counts what a batch already spent: at 10 of a budget of 10, its leftover questions go over for sure', async () => {
    const spentSet = join(dir, 'spent.csv');
    writeFileSync(spentSet, `id,question\n${[5, 5, 5, 5].map((c, i) => `s${i},plan @confirm=${c}`).join('\n')}\n`);
    writeFileSync(join(dir, 'tight.yaml'), 'confirm_scope:\n  approve_max_cost: 10\n  batch_budget: 10\n  otherwise: hold\n');
    const env = { RESQ_API_KEY: sim.keys[0] ?? '', RESQ_BASE_URL: sim.url };
    expect((await runInProcess(['run', spentSet, '--db', db, '--batch', 'spent', '--policy', join(dir, 'tight.yaml'), '--limit', '2'], env)).code).toBe(0);
    const r = await runInProcess(['forecast', spentSet, '--from', 'spent', '--db', db, '--json']);
    const f = JSON.parse(r.stdout) as Report;
    expect(f).toMatchObject({ questions: 2, rest: true, spent: 10, now: { spent: 10, heldPauses: 0 } });
    // Each question costs 5 (no spread): 10 + 2 × 5 = 20 against 10.
    expect(f.batchCost.estimate).toBe(20);
    expect(f.budget).toMatchObject({ budget: 10, share: 2, chanceOver: 1 });
    expect((await runInProcess(['forecast', spentSet, '--from', 'spent', '--db', db])).stdout).toContain('budget 10: about 200% of it (200%–200%); chance of going over: 100%');
  });

  it('learns what a question costs from a reference batch that hit its budget: the pauses its budget held count at their cost, not 0', async () => {
    const hit = join(dir, 'hit.csv');
    writeFileSync(hit, `id,question\n${[5, 5, 5, 5].map((c, i) => `h${i},plan @confirm=${c}`).join('\n')}\n`);
    writeFileSync(join(dir, 'budget10.yaml'), 'confirm_scope:\n  approve_max_cost: 10\n  batch_budget: 10\n  otherwise: hold\n');
    const env = { RESQ_API_KEY: sim.keys[0] ?? '', RESQ_BASE_URL: sim.url };
    const ran = await runInProcess(['run', hit, '--db', db, '--batch', 'hit', '--policy', join(dir, 'budget10.yaml'), '--no-wait'], env);
    // Exit 3: the budget held two of the four pauses (10 of 10 spent).
    expect(ran.code, ran.stderr).toBe(3);
    expect(JSON.parse((await runInProcess(['forecast', hit, '--from', 'hit', '--all', '--db', db, '--json'])).stdout)).toMatchObject({ now: { spent: 10, heldPauses: 2 } });
    const other = join(dir, 'other.csv');
    writeFileSync(other, `id,question\n${['a', 'b', 'c', 'd'].map((x) => `${x},another ${x}`).join('\n')}\n`);
    const f = JSON.parse((await runInProcess(['forecast', other, '--from', 'hit', '--db', db, '--json'])).stdout) as Report;
    // Every question costs 5 under the rules: 4 × 5 = 20, twice the budget; none is held by the rules.
    expect(f.totalCost.estimate).toBe(20);
    expect(f.held.perQuestion).toBe(0);
    expect(f.budget).toMatchObject({ budget: 10, share: 2, chanceOver: 1 });
  });

  it('forecasts every row again with --all, as a new batch with nothing spent', async () => {
    const f = JSON.parse((await runInProcess(['forecast', q, '--from', 'fb', '--all', '--db', db, '--json'])).stdout) as Report;
    expect(f).toMatchObject({ questions: 10, rest: false, match: 'name', spent: 0 });
    expect(f.totalCost.estimate).toBe(40);
    expect(f.batchCost.estimate).toBe(40);
    expect((await runInProcess(['forecast', q, '--from', 'fb', '--all', '--db', db])).stdout).toContain(`  every row of ${q}, as a new batch (nothing spent yet)`);
  });

  it('says plainly that a renamed copy of the file of a batch is matched by its content, not its name', async () => {
    const copy = join(dir, 'renamed.csv');
    writeFileSync(copy, readFileSync(q));
    const f = JSON.parse((await runInProcess(['forecast', copy, '--from', 'fb', '--db', db, '--json'])).stdout) as Report;
    expect(f).toMatchObject({ match: 'content', rest: true, questions: 5 });
    const t = await runInProcess(['forecast', copy, '--from', 'fb', '--db', db]);
    expect(t.stdout.split('\n')[2]).toBe(`  ${copy} is matched to batch fb by its content, not its name: the batch was loaded from ${q}`);
  });

  it("holds the next batch's actual cost within the interval learned from one batch of known costs, then says how far off that forecast was", async () => {
    const env = { RESQ_API_KEY: sim.keys[0] ?? '', RESQ_BASE_URL: sim.url };
    writeFileSync(join(dir, 'open10.yaml'), 'confirm_scope:\n  approve_max_cost: 10\n');
    const plan = (name: string, costs: number[]): string => {
      const path = join(dir, name);
      writeFileSync(path, `id,question\n${costs.map((c, i) => `${name[0]}${i},plan @confirm=${c}`).join('\n')}\n`);
      return path;
    };
    // Batch "known": costs 1..10, all approved (mean 5.5, sd 3.03).
    const known = plan('known.csv', [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect((await runInProcess(['run', known, '--db', db, '--batch', 'known', '--policy', join(dir, 'open10.yaml')], env)).code).toBe(0);
    const next = plan('next.csv', [2, 4, 6, 8, 8, 9, 10, 10]);
    const f = JSON.parse((await runInProcess(['forecast', next, '--from', 'known', '--db', db, '--json'])).stdout) as Report & { lastForecast: unknown };
    // 8 × 5.5 = 44, ± Z90 × sd × √(8 + 8² / 10): the doubt of a mean learned from 10 questions counts.
    expect(f.totalCost.estimate).toBe(44);
    expect((await runInProcess(['run', next, '--db', db, '--batch', 'next', '--policy', join(dir, 'open10.yaml')], env)).code).toBe(0);
    const actual = 2 + 4 + 6 + 8 + 8 + 9 + 10 + 10;
    expect(f.totalCost.low).toBeLessThanOrEqual(actual);
    expect(f.totalCost.high).toBeGreaterThanOrEqual(actual);
    expect(f).toMatchObject({ questions: 8, match: 'none', learnedFrom: [{ name: 'known', questions: 10 }], lastForecast: null });
    // Learning from the batch that ran: the forecast made for its file, against what it cost.
    const again = JSON.parse((await runInProcess(['forecast', next, '--from', 'next', '--all', '--db', db, '--json'])).stdout) as { learnedFrom: unknown; lastForecast: Record<string, unknown> };
    expect(again.learnedFrom).toEqual([{ name: 'next', questions: 8 }]);
    expect(again.lastForecast).toMatchObject({ batch: 'next', learnedFrom: ['known'], ended: true, cost: { estimate: 44, actual, off: actual - 44, inside: true }, held: { estimate: 0, actual: 0, off: 0 } });
    const t = (await runInProcess(['forecast', next, '--from', 'next', '--all', '--db', db])).stdout.split('\n');
    const at = t.findIndex((l) => l.startsWith('  total cost:'));
    // Learning from both: the questions that ran in each join the sample, each batch named.
    const both = (await runInProcess(['forecast', next, '--from', 'next', '--from', 'known', '--all', '--db', db, '--json'])).stdout;
    expect(JSON.parse(both)).toMatchObject({ sample: 18, learnedFrom: [{ name: 'next', questions: 8 }, { name: 'known', questions: 10 }], totalCost: { estimate: 8 * ((actual + 55) / 18) } });
    const bothText = (await runInProcess(['forecast', next, '--from', 'next', '--from', 'known', '--all', '--db', db])).stdout.split('\n');
    expect(bothText[0]).toContain('from 18 questions that ran in batches next, known;');
    expect(bothText[1]).toBe('  learned from: batch next (8 questions that ran), batch known (10 questions that ran)');
    expect(t[at + 1]).toMatch(/^ {4}last forecast of batch next \(made [\d-]+ [\d:]+, from batch known\): about 44 \(29\.3–58\.7\); the batch cost 57: off by \+13 \(\+30%\), within its p10–p90$/);
  });

  it('says in one line what is wrong (unknown batch, bad row, bad policy, bad flag) and exits 2', async () => {
    const bad = join(dir, 'bad.csv');
    writeFileSync(bad, 'id,question\na,fine\nb,\n');
    writeFileSync(join(dir, 'bad.yaml'), 'confirm_scope:\n  approve_max_cost: 5\n  otherwise: maybe\n');
    for (const [args, says] of [
      [['forecast', q, '--from', 'nope'], 'no batch named "nope"'],
      [['forecast', q, '--from', 'fb', '--from', 'nope'], '--from: no batch named "nope"'],
      [['forecast', bad, '--from', 'fb'], `${bad}:3`],
      [['forecast', q, '--from', 'fb', '--policy', join(dir, 'bad.yaml')], `${join(dir, 'bad.yaml')}:3: confirm_scope.otherwise`],
      [['forecast', q, '--from', 'fb', '--cap', '0'], '--cap: must be a whole number'],
      [['forecast', q, '--from', 'fb', '--budget', '-3'], '--budget: must be a number above 0'],
    ] as const) {
      const r = await runInProcess([...args, '--db', db]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n'), r.stderr).toHaveLength(1);
      expect(r.stderr).toContain(says);
    }
  });
});
