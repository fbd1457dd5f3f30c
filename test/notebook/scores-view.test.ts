import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openResults, type Results } from '../../src/notebook/results.js';
import { scoresChart, scoresTable, VERDICT_COLORS } from '../../src/notebook/scores-view.js';
import type { Verdict } from '../../src/score/types.js';
import { startSim } from '../../src/sim/index.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { tempDir } from '../support/cli.js';
import { runInProcess } from '../support/in-process-cli.js';
import { findAll, parseXml, textOf } from './support/xml.js';

const verdict = (scorer: string, pass: boolean | null): Verdict => ({ scorer, version: 'v1', pass, score: pass === null ? null : Number(pass), reason: 'r', scoredAt: '2026-01-01T00:00:00.000Z', by: 'includes' });

let r: Results;
beforeAll(async () => {
  // A batch run against the simulator; its verdicts recorded as a scorer records them.
  const sim = await startSim({ defaultDurationMs: 20 });
  const dir = tempDir('resq-notebook-scores-');
  const q = join(dir, 'q.jsonl');
  writeFileSync(q, ['a', 'b', 'c', 'd', 'e'].map((id) => JSON.stringify({ id, question: `what is ${id}?` })).join('\n'));
  const db = join(dir, 'resq.db');
  try {
    const run = await runInProcess(['run', q, '--db', db, '--batch', 'judged', '--no-download'], { RESQ_API_KEY: sim.keys[0], RESQ_BASE_URL: sim.url });
    expect(run.code).toBe(0);
    const plain = await runInProcess(['run', q, '--db', db, '--batch', 'plain', '--no-download'], { RESQ_API_KEY: sim.keys[0], RESQ_BASE_URL: sim.url });
    expect(plain.code).toBe(0);
  } finally {
    await sim.close();
  }
  const store = await SqliteStore.open(db);
  const id = (await store.findBatch('judged'))!.id;
  for (const [item, pass] of [['a', true], ['b', true], ['c', true], ['d', false]] as const) await store.recordVerdicts(id, item, [verdict('mentions', pass)]);
  await store.recordVerdicts(id, 'a', [verdict('exact', false)]);
  await store.close();
  r = await openResults(db);
});
afterAll(async () => r?.close());

describe('scores in a notebook', () => {
  it("scores(batch) gives each scorer's passed, failed, unscored and pass rate with its 95% interval, as resq status does", async () => {
    const rows = await r.scores('judged');
    expect(rows.map((x) => [x.name, x.passed, x.failed, x.unscored, x.passRate])).toEqual([
      ['exact', 0, 1, 4, 0],
      ['mentions', 3, 1, 1, 0.75],
    ]);
    expect((await r.status('judged')).scores).toEqual(rows);
    expect(await r.scores('plain')).toEqual([]);
  });

  it('shows them as a table: scorer, version, pass rate, interval, counts', async () => {
    const html = parseXml(`<div>${scoresTable(await r.scores('judged'), { batch: 'judged' })['text/html']}</div>`);
    expect(findAll(html, 'th').map(textOf)).toEqual(['scorer', 'version', 'pass_rate', 'interval_95', 'passed', 'failed', 'unscored']);
    expect(findAll(html, 'td').map(textOf).slice(7)).toEqual(['mentions', 'v1', '75.0%', '30.1%–95.4%', '3', '1', '1']);
    expect(scoresTable([])['text/html']).toContain('no scorer judges this batch');
  });

  it('charts them: a bar per scorer, passed, failed and unscored stacked, the pass rate and interval after it', async () => {
    const el = parseXml(scoresChart(await r.scores('judged'))['image/svg+xml'] ?? '');
    const texts = findAll(el, 'text').map(textOf);
    expect(texts).toEqual(expect.arrayContaining(['Pass rates', 'exact', 'mentions', '75.0% (95% CI 30.1–95.4%)', '0.0% (95% CI 0.0–79.3%)']));
    const fills = findAll(el, 'rect').map((x) => x.attrs.fill);
    expect(fills.filter((f) => f === VERDICT_COLORS.passed).length).toBeGreaterThan(0);
    expect(fills).toEqual(expect.arrayContaining([VERDICT_COLORS.failed, VERDICT_COLORS.unscored]));
  });
});
