import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scoreBatch, passRate } from '../../src/score/score-batch.js';
import { parseScorers } from '../../src/score/scorers-file.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/port.js';
import { tempDir } from '../support/cli.js';
import { batchOf } from '../store/scores-contract.js';

// scoreBatch pages through a batch (pages of 3 here) whichever way it reads it: the batch once a
// page when most items lack every scorer, each scorer's own list when most are judged.

const dir = tempDir('resq-score-batch-');
let n = 0;
const opened: Store[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

const [a, b] = parseScorers('scorers: [{name: a, kind: regex, pattern: "answer of"}, {name: b, kind: regex, pattern: "r[0-4]$"}]', 's.yaml');
const by = async (s: Store, id: string) => Object.fromEntries((await s.verdictsOf('sb', id)).map((v) => [v.scorer, v.reason]));
const hand = (scorer: typeof a) => ({ scorer: scorer!.name, version: scorer!.version, pass: true, score: 1, reason: 'by hand', scoredAt: '2026-01-01T00:00:00.000Z', by: 'test' });

async function batch(judgedByA: number[]): Promise<Store> {
  const s = SqliteStore.open(join(dir, `b${n++}.db`));
  opened.push(s);
  // 10 items, 9 completed (i9 failed), text `answer of sb-r<i>`.
  await batchOf(s, 'sb', 10, [0, 1, 2, 3, 4, 5, 6, 7, 8], [9]);
  for (const i of judgedByA) await s.recordVerdicts('sb', `i${i}`, [hand(a)]);
  return s;
}

describe('scoreBatch', () => {
  it('a first scoring reads the batch once a page and judges each item by each scorer it lacks, keeping the verdicts it has', async () => {
    const s = await batch([2, 5]);
    const seen: number[] = [];
    const r = await scoreBatch({ store: s, batchId: 'sb', scorers: [a!, b!], pageSize: 3, onProgress: (p) => seen.push(p.done) });
    expect(r.judged).toBe(7 + 9);
    expect(await by(s, 'i2')).toEqual({ a: 'by hand', b: 'matches /r[0-4]$/' });
    expect(await by(s, 'i8')).toEqual({ a: 'matches /answer of/', b: 'does not match /r[0-4]$/' });
    expect(await by(s, 'i9')).toEqual({});
    expect(r.totals.map((t) => [t.scorer, t.passed, t.failed, t.unscored, passRate(t)])).toEqual([['a', 9, 0, 0, 1], ['b', 5, 4, 0, 5 / 9]]);
    expect(seen).toEqual([0, 3, 6, 9]);
    expect((await scoreBatch({ store: s, batchId: 'sb', scorers: [a!, b!], pageSize: 3 })).judged).toBe(0);
  });

  it('when most items are judged, reads what each scorer lacks; rescore judges every completed item again', async () => {
    const s = await batch([0, 1, 2, 3, 4, 5, 6]);
    expect((await scoreBatch({ store: s, batchId: 'sb', scorers: [a!, b!], pageSize: 3 })).judged).toBe(2 + 9);
    expect(await by(s, 'i6')).toEqual({ a: 'by hand', b: 'does not match /r[0-4]$/' });
    expect(await by(s, 'i7')).toEqual({ a: 'matches /answer of/', b: 'does not match /r[0-4]$/' });
    expect((await scoreBatch({ store: s, batchId: 'sb', scorers: [a!], pageSize: 4, rescore: true })).judged).toBe(9);
    expect(await by(s, 'i6')).toEqual({ a: 'matches /answer of/', b: 'does not match /r[0-4]$/' });
  });
});
