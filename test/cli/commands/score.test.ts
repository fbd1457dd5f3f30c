import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type Sim } from '../../../src/sim/index.js';
import { openStore } from '../../../src/store/index.js';
import { tempDir } from '../../support/cli.js';
import { runInProcess } from '../../support/in-process-cli.js';

// `resq score` and `--score` on real batches run against the simulator, whose answer is
// `Simulated answer to: "<question>".` (docs/simulator.md): each question says what it is judged on.

const QUESTIONS = [
  { id: 'a', question: 'the capital is Paris', expected: 'PARIS' },
  { id: 'b', question: 'the capital is Lyon', expected: 'Paris' },
  { id: 'c', question: 'a total of 42 @files=csv', expected: 42 },
  { id: 'd', question: 'a total of 41', expected: 42 },
  { id: 'e', question: 'as data ```json {"total": 12} ```', expected: 12 },
  { id: 'f', question: 'no expected answer here' },
  { id: 'g', question: 'this one fails @fail', expected: 'x' },
];

const SCORERS = `scorers:
  - name: mentions
    kind: includes
  - name: value
    kind: number
    tolerance: 0.5
  - name: pattern
    kind: regex
    pattern: "Simulated answer to"
  - name: table
    kind: files
    names: ["*.csv"]
  - name: total
    kind: json
    path: total
`;

describe('resq score', () => {
  let sim: Sim;
  let dir: string;
  let db: string;
  let env: Record<string, string>;
  let scorers: string;
  const verdicts = async (id: string) => {
    const store = await openStore(db);
    try {
      const b = (await store.findBatch('judged'))!;
      return Object.fromEntries((await store.verdictsOf(b.id, id)).map((v) => [v.scorer, v.pass]));
    } finally {
      await store.close();
    }
  };

  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 10 });
    env = { RESQ_API_KEY: sim.keys[0] ?? '' };
    dir = tempDir('resq-score-');
    db = join(dir, 'resq.db');
    const q = join(dir, 'judged.jsonl');
    writeFileSync(q, QUESTIONS.map((x) => JSON.stringify(x)).join('\n') + '\n');
    scorers = join(dir, 'scorers.yaml');
    writeFileSync(scorers, SCORERS);
    const r = await runInProcess(['run', q, '--db', db, '--base-url', sim.url, '--no-download', '--score', scorers], env);
    // g failed at the service: exit 1, the rest completed.
    expect(r.code).toBe(1);
  }, 60_000);
  afterAll(async () => sim.close());

  it('--score on run: the worker judged each item as it completed, every local kind, and stored the scorers with the batch', async () => {
    expect(await verdicts('a')).toEqual({ mentions: true, value: null, pattern: true, table: false, total: false });
    expect(await verdicts('b')).toEqual({ mentions: false, value: null, pattern: true, table: false, total: false });
    expect(await verdicts('c')).toEqual({ mentions: true, value: true, pattern: true, table: true, total: false });
    expect(await verdicts('d')).toEqual({ mentions: false, value: false, pattern: true, table: false, total: false });
    expect(await verdicts('e')).toEqual({ mentions: true, value: true, pattern: true, table: false, total: true });
    expect(await verdicts('f')).toEqual({ mentions: null, value: null, pattern: true, table: false, total: null });
    // A failed item is not judged.
    expect(await verdicts('g')).toEqual({});
    const store = await openStore(db);
    try {
      expect((await store.findBatch('judged'))!.settings.scorers!.map((s) => s.name)).toEqual(['mentions', 'value', 'pattern', 'table', 'total']);
    } finally {
      await store.close();
    }
  });

  it('prints each scorer\'s counts and pass rate; judges nothing already judged; --rescore judges all again and sends the service nothing', async () => {
    const first = await runInProcess(['score', 'judged', '--db', db, '--scorers', scorers]);
    expect(first.code).toBe(0);
    expect(first.stdout).toBe(
      [
        'mentions: passed 3, failed 2, unscored 1, pass rate 60.0%',
        'value: passed 2, failed 1, unscored 3, pass rate 66.7%',
        'pattern: passed 6, failed 0, unscored 0, pass rate 100.0%',
        'table: passed 1, failed 5, unscored 0, pass rate 16.7%',
        'total: passed 1, failed 4, unscored 1, pass rate 20.0%',
        '',
      ].join('\n'),
    );
    expect(first.stderr).toContain('judged 0 verdicts');
    const ledger = JSON.stringify(sim.ledger());
    const requests = JSON.stringify(sim.counters().requestsByRoute);
    const again = await runInProcess(['score', 'judged', '--db', db, '--scorers', scorers, '--rescore']);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('judged 30 verdicts');
    // Progress: what it starts from (a live bar on a terminal).
    expect(again.stderr).toContain('scoring: up to 6 items to judge');
    const bar = await runInProcess(['score', 'judged', '--db', db, '--scorers', scorers, '--rescore'], {}, { isTTY: true, columns: 100 });
    expect(bar.code).toBe(0);
    expect(bar.stderr).toMatch(/6\/6/);
    expect(again.stdout).toBe(first.stdout);
    // Not one request reached the simulator: its ledger and its counts by route are as they were.
    expect(JSON.stringify(sim.ledger())).toBe(ledger);
    expect(JSON.stringify(sim.counters().requestsByRoute)).toBe(requests);
  });

  it('judges with a new scorer version only what lacks its verdict, a command scorer included, given on this command line', async () => {
    const seen = join(dir, 'seen.txt');
    const judge = join(dir, 'judge.sh');
    writeFileSync(judge, `#!/bin/sh\nid=$(sed 's/.*"id":"\\([^"]*\\)".*/\\1/')\necho "$id" >> ${seen}\nif [ "$id" = a ]; then echo '{"pass": true, "score": 0.9, "reason": "fine"}'; else echo '{"pass": false}'; fi\n`);
    chmodSync(judge, 0o755);
    const file = join(dir, 'more.yaml');
    writeFileSync(file, `scorers:\n  - name: mentions\n    kind: includes\n  - name: mine\n    kind: command\n    command: ${judge}\n  - name: value\n    kind: number\n    tolerance: 2\n`);
    const r = await runInProcess(['score', 'judged', '--db', db, '--scorers', file]);
    expect(r.code).toBe(0);
    // mentions is judged already (same version); mine and value (a new tolerance: a new version) judge the 6 completed items.
    expect(r.stderr).toContain('judged 12 verdicts');
    expect(r.stdout).toContain('mine: passed 1, failed 5, unscored 0, pass rate 16.7%');
    expect(r.stdout).toContain('value: passed 3, failed 0, unscored 3, pass rate 100.0%');
    expect(readFileSync(seen, 'utf8').trim().split('\n').sort()).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
  });

  it('--fail-under: exit 4 when any scorer\'s pass rate is under it, 0 when none is, 2 for a bad rate or a bad file', async () => {
    const under = await runInProcess(['score', 'judged', '--db', db, '--scorers', scorers, '--fail-under', '0.5']);
    expect(under.code).toBe(4);
    expect(under.stderr).toContain('a pass rate is under 50.0% (--fail-under)');
    const only = join(dir, 'pattern.yaml');
    writeFileSync(only, 'scorers:\n  - name: pattern\n    kind: regex\n    pattern: "Simulated answer to"\n');
    expect((await runInProcess(['score', 'judged', '--db', db, '--scorers', only, '--fail-under', '100%'])).code).toBe(0);
    const bad = await runInProcess(['score', 'judged', '--db', db, '--scorers', only, '--fail-under', '1.5']);
    expect([bad.code, bad.stderr]).toEqual([2, 'resq: --fail-under: give a pass rate from 0 to 1 (0.9) or a percentage (90%)\n']);
    const broken = join(dir, 'broken.yaml');
    writeFileSync(broken, 'scorers:\n  - name: x\n    kind: number\n    tolerance: lots\n');
    const b2 = await runInProcess(['score', 'judged', '--db', db, '--scorers', broken]);
    expect([b2.code, b2.stderr]).toEqual([2, `resq: ${broken}:4: scorers.0.tolerance: must be a number, found a string\n`]);
  });

  it("a pipeline's score: key judges its batch as it runs; resume --score replaces the batch's scorers and says so", async () => {
    const pipe = join(dir, 'piped.yaml');
    writeFileSync(join(dir, 'piped.csv'), 'id,question,expected\np1,the capital is Paris,paris\np2,the capital is Rome,paris\n');
    writeFileSync(pipe, `name: piped\nquestions: piped.csv\nscore: scorers.yaml\n`);
    const r = await runInProcess(['run', pipe, '--db', db, '--base-url', sim.url, '--no-download'], env);
    expect(r.code).toBe(0);
    const store = await openStore(db);
    try {
      const b = (await store.findBatch('piped'))!;
      expect((await store.verdictsOf(b.id, 'p1')).find((v) => v.scorer === 'mentions')?.pass).toBe(true);
      expect((await store.verdictsOf(b.id, 'p2')).find((v) => v.scorer === 'mentions')?.pass).toBe(false);
      expect((await store.getItem(b.id, 'p1'))!.expected).toBe('paris');
    } finally {
      await store.close();
    }
    const only = join(dir, 'only-pattern.yaml');
    writeFileSync(only, 'scorers:\n  - name: pattern\n    kind: regex\n    pattern: "Simulated"\n');
    const again = await runInProcess(['resume', 'piped', '--db', db, '--base-url', sim.url, '--score', only], env);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('scorers: mentions, value, pattern, table, total → pattern');
    const shown = await runInProcess(['show', 'piped', 'p1', '--db', db]);
    expect(shown.stdout).toContain('expected: paris\nanswer:');
    expect(shown.stdout).toContain('verdict mentions: pass (score 1): contains "paris" (by includes, ');
  });

  it('an agent scorer with no key for the batch\'s service says so plainly (exit 2), asking and judging nothing', async () => {
    const file = join(dir, 'agent.yaml');
    writeFileSync(file, 'scorers:\n  - name: judged\n    kind: agent\n    rubric: Same result?\n');
    const runs = sim.ledger().runs.length;
    const r = await runInProcess(['score', 'judged', '--db', db, '--scorers', file]);
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split('\n').at(-1)).toMatch(/^resq: RESQ_API_KEY is not set: the batch runs on its stored base URL /);
    expect(sim.ledger().runs.length).toBe(runs);
    expect(await verdicts('a')).not.toHaveProperty('judged');
  });
});

