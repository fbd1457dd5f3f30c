import { afterEach, describe, expect, it } from 'vitest';
import type { Verdict } from '../../src/score/types.js';
import type { Store } from '../../src/store/port.js';
import type { NewBatch } from '../../src/store/shapes.js';
import { snap } from './snapshot.js';

/**
 * The scores role (issue 40, migration 029_expected_and_verdicts), written against `Store` only:
 * verdicts kept per item, scorer and version (an upsert), the completed items a scorer version
 * has still to judge, its totals over completed items, and the batch's verdicts page by page.
 */

const NOW = 1_700_000_000_000;
const B = 'sb';

function newBatch(id: string): NewBatch {
  return {
    id, name: `scores-${id}`, kind: 'runs', sourcePath: `/data/${id}.csv`, sourceSha256: 'sha', baseUrl: null,
    settings: { concurrency: 4, follow: 'sse', download: { enabled: false, concurrency: 2, out: null }, pipelineFile: null, service: 'sim' },
    policy: null,
  };
}

const v = (scorer: string, pass: boolean | null, over: Partial<Verdict> = {}): Verdict => ({
  scorer, version: 'v1', pass, score: pass === null ? null : pass ? 1 : 0, reason: pass === null ? 'no number in the answer' : 'ok', scoredAt: '2026-01-01T00:00:00.000Z', by: 'includes', ...over,
});

/** A batch of `n` items (i0..), those of `done` completed and `failed` failed; the rest queued. */
export async function batchOf(store: Store, batchId: string, n: number, done: number[], failed: number[] = []): Promise<void> {
  const loader = await store.beginBatchLoad(newBatch(batchId));
  for (let i = 0; i < n; i++) await loader.add({ id: `i${i}`, seq: i, line: i + 2, question: `q ${i}?`, threadKey: null, meta: {} });
  await loader.commit([]);
  const w = (await store.registerWorker(batchId, { host: 'h', pid: 1 }, NOW)).id;
  for (const i of [...done, ...failed]) {
    const c = await store.claimItems(batchId, { workerId: w, leaseMs: 60_000, max: 1, cap: 100, afterSeq: i - 1, takeOver: [] }, NOW);
    const it = c.items[0]!;
    const run = await store.markAdmitted(it, { id: `${batchId}-r${i}`, status: 'running', threadId: null, step: 0, parentRunId: null, idempotencyKey: it.pendingKey! });
    if (done.includes(i)) await store.markFinished(run, snap(`${batchId}-r${i}`), 'completed');
    else await store.markFinished(run, snap(`${batchId}-r${i}`, { status: 'failed', output: null }), 'failed');
  }
}

export function scoresContract(name: string, open: () => Promise<Store>): void {
  describe(`verdicts kept in the store (${name})`, () => {
    const opened: Store[] = [];
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((s) => s.close()));
    });
    const fresh = async (): Promise<Store> => {
      const s = await open();
      opened.push(s);
      return s;
    };

    it('keeps each item its expected answer apart from meta, loaded row by row, column by column or appended', async () => {
      const s = await fresh();
      const loader = await s.beginBatchLoad(newBatch(B));
      await loader.add({ id: 'a', seq: 0, line: 2, question: 'a?', threadKey: null, meta: { topic: 'x' }, expectedJson: '{"total":12}' });
      await loader.add({ id: 'b', seq: 1, line: 3, question: 'b?', threadKey: null, meta: {} });
      await loader.addColumns({ ids: ['c', 'd'], lines: [4, 5], questions: ['c?', 'd?'], threads: [null, null], metas: ['{}', '{}'], expecteds: ['"Paris"', null] }, 2);
      await loader.commit([]);
      const grow = await s.beginBatchAppend(B);
      await grow.addColumns({ ids: ['e'], lines: [6], questions: ['e?'], threads: [null], metas: ['{}'], expecteds: ['12345678901234567890'] });
      await grow.commit([], 'sha-2');
      const items = await s.listItems(B);
      // A long number keeps the digits the file had.
      expect(items.map((i) => [i.id, JSON.stringify(i.expected)])).toEqual([['a', '{"total":12}'], ['b', 'null'], ['c', '"Paris"'], ['d', 'null'], ['e', '12345678901234567890']]);
      expect((await s.getItem(B, 'a'))!.meta).toEqual({ topic: 'x' });
    });

    it('keeps one verdict per item, scorer and version: recording again replaces it, another version is kept beside it', async () => {
      const s = await fresh();
      await batchOf(s, B, 2, [0, 1]);
      await s.recordVerdicts(B, 'i0', [v('mentions', false), v('value', null)]);
      await s.recordVerdicts(B, 'i0', [v('mentions', true, { reason: 'contains "42"', scoredAt: '2026-01-02T00:00:00.000Z', score: 0.5 })]);
      await s.recordVerdicts(B, 'i0', [v('mentions', false, { version: 'v2', by: 'command:mentions' })]);
      expect(await s.verdictsOf(B, 'i0')).toEqual([
        v('mentions', true, { reason: 'contains "42"', scoredAt: '2026-01-02T00:00:00.000Z', score: 0.5 }),
        v('mentions', false, { version: 'v2', by: 'command:mentions' }),
        v('value', null),
      ]);
      expect(await s.verdictsOf(B, 'i1')).toEqual([]);
      await expect(s.recordVerdicts(B, 'nope', [v('mentions', true)])).rejects.toThrow(/no item nope/);
    });

    it('records many items\' verdicts in one call, as one each would, and refuses the whole call for an item the batch lacks', async () => {
      const s = await fresh();
      await batchOf(s, B, 3, [0, 1, 2]);
      await s.recordVerdictsMany(B, [{ itemId: 'i2', verdicts: [v('mentions', true), v('value', false)] }, { itemId: 'i0', verdicts: [v('mentions', null)] }]);
      await s.recordVerdictsMany(B, [{ itemId: 'i0', verdicts: [v('mentions', false)] }]);
      expect(await s.verdictsOf(B, 'i0')).toEqual([v('mentions', false)]);
      expect(await s.verdictsOf(B, 'i2')).toEqual([v('mentions', true), v('value', false)]);
      await expect(s.recordVerdictsMany(B, [{ itemId: 'i1', verdicts: [v('mentions', true)] }, { itemId: 'nope', verdicts: [v('mentions', true)] }])).rejects.toThrow(/no item nope/);
      expect(await s.verdictsOf(B, 'i1')).toEqual([]);
    });

    it("records many items' verdicts by the seqs the caller read, and refuses the whole call for a seq that is not its item's", async () => {
      const s = await fresh();
      await batchOf(s, B, 3, [0, 1, 2]);
      await s.recordVerdictsMany(B, [{ itemId: 'i0', seq: 0, verdicts: [v('mentions', true)] }, { itemId: 'i2', seq: 2, verdicts: [v('mentions', false), v('value', null)] }]);
      await s.recordVerdictsMany(B, [{ itemId: 'i0', seq: 0, verdicts: [v('mentions', false)] }]);
      expect(await s.verdictsOf(B, 'i0')).toEqual([v('mentions', false)]);
      expect(await s.verdictsOf(B, 'i2')).toEqual([v('mentions', false), v('value', null)]);
      await expect(s.recordVerdictsMany(B, [{ itemId: 'i1', seq: 1, verdicts: [v('mentions', true)] }, { itemId: 'i0', seq: 2, verdicts: [v('mentions', true)] }])).rejects.toThrow(/no item i0/);
      await expect(s.recordVerdictsMany(B, [{ itemId: 'i1', seq: 7, verdicts: [v('mentions', true)] }])).rejects.toThrow(/no item i1/);
      expect(await s.verdictsOf(B, 'i1')).toEqual([]);
      expect(await s.verdictsOf(B, 'i0')).toEqual([v('mentions', false)]);
    });

    it('hands out the completed items lacking that version, in seq order, page by page; with rescore every completed item', async () => {
      const s = await fresh();
      await batchOf(s, B, 7, [0, 2, 3, 5, 6], [1]);
      await s.recordVerdicts(B, 'i2', [v('mentions', true)]);
      await s.recordVerdicts(B, 'i5', [v('mentions', true, { version: 'old' })]);
      const ref = { name: 'mentions', version: 'v1' };
      const ids = async (q: Parameters<Store['itemsToScore']>[2]) => (await s.itemsToScore(B, ref, q)).map((i) => i.id);
      expect(await ids({ afterSeq: -1, limit: 100 })).toEqual(['i0', 'i3', 'i5', 'i6']);
      expect(await ids({ afterSeq: -1, limit: 2 })).toEqual(['i0', 'i3']);
      expect(await ids({ afterSeq: 3, limit: 2 })).toEqual(['i5', 'i6']);
      expect(await ids({ afterSeq: -1, limit: 100, rescore: true })).toEqual(['i0', 'i2', 'i3', 'i5', 'i6']);
      const [first] = await s.itemsToScore(B, ref, { afterSeq: -1, limit: 1 });
      expect(first).toMatchObject({ id: 'i0', state: 'completed', text: `answer of ${B}-r0`, question: 'q 0?', expected: null });
    });

    it('totals each scorer over completed items: an item without its verdict, or with a null one, is unscored', async () => {
      const s = await fresh();
      await batchOf(s, B, 6, [0, 1, 2, 3, 4], [5]);
      await batchOf(s, 'other', 2, [0, 1]);
      await s.recordVerdicts(B, 'i0', [v('mentions', true), v('value', false)]);
      await s.recordVerdicts(B, 'i1', [v('mentions', true), v('value', null)]);
      await s.recordVerdicts(B, 'i2', [v('mentions', false), v('mentions', true, { version: 'old' })]);
      await s.recordVerdicts(B, 'i3', [v('mentions', null)]);
      await s.recordVerdicts('other', 'i0', [v('mentions', false)]);
      expect(await s.scoreTotals(B, [{ name: 'value', version: 'v1' }, { name: 'mentions', version: 'v1' }, { name: 'mentions', version: 'old' }, { name: 'none', version: 'v1' }])).toEqual([
        { scorer: 'value', version: 'v1', passed: 0, failed: 1, unscored: 4 },
        { scorer: 'mentions', version: 'v1', passed: 2, failed: 1, unscored: 2 },
        { scorer: 'mentions', version: 'old', passed: 1, failed: 0, unscored: 4 },
        { scorer: 'none', version: 'v1', passed: 0, failed: 0, unscored: 5 },
      ]);
      expect(await s.scoreTotals('other', [{ name: 'mentions', version: 'v1' }])).toEqual([{ scorer: 'mentions', version: 'v1', passed: 0, failed: 1, unscored: 1 }]);
      // A completed item queued again (resq retry ITEM): its verdict no longer counts, nor does it.
      expect(await s.requeue(B, ['i0'], ['completed'])).toEqual(['i0']);
      expect(await s.scoreTotals(B, [{ name: 'mentions', version: 'v1' }, { name: 'value', version: 'v1' }])).toEqual([
        { scorer: 'mentions', version: 'v1', passed: 1, failed: 1, unscored: 2 },
        { scorer: 'value', version: 'v1', passed: 0, failed: 0, unscored: 4 },
      ]);
      expect(await s.scoreTotals('no-such-batch', [{ name: 'mentions', version: 'v1' }])).toEqual([{ scorer: 'mentions', version: 'v1', passed: 0, failed: 0, unscored: 0 }]);
    });

    it("pages through the batch's verdicts in seq order, each item once with all its verdicts", async () => {
      const s = await fresh();
      await batchOf(s, B, 5, [0, 1, 2, 3, 4]);
      await s.recordVerdicts(B, 'i3', [v('value', true), v('mentions', false)]);
      await s.recordVerdicts(B, 'i0', [v('mentions', true)]);
      await s.recordVerdicts(B, 'i4', [v('mentions', null)]);
      const page1 = await s.verdictsPage(B, { afterSeq: -1, limit: 2 });
      expect(page1).toEqual([
        { itemId: 'i0', seq: 0, verdicts: [v('mentions', true)] },
        { itemId: 'i3', seq: 3, verdicts: [v('mentions', false), v('value', true)] },
      ]);
      expect(await s.verdictsPage(B, { afterSeq: 3, limit: 2 })).toEqual([{ itemId: 'i4', seq: 4, verdicts: [v('mentions', null)] }]);
      expect(await s.verdictsPage(B, { afterSeq: 4, limit: 2 })).toEqual([]);
    });

    it('filters an item page by what a scorer version said: passed, failed, unscored (completed without a pass or fail of it), paged by keyset', async () => {
      const s = await fresh();
      await batchOf(s, B, 7, [0, 1, 2, 3, 4, 5], [6]);
      await s.recordVerdicts(B, 'i0', [v('mentions', true)]);
      await s.recordVerdicts(B, 'i1', [v('mentions', false), v('value', true)]);
      await s.recordVerdicts(B, 'i2', [v('mentions', true)]);
      await s.recordVerdicts(B, 'i3', [v('mentions', null), v('mentions', true, { version: 'old' })]);
      await s.recordVerdicts(B, 'i4', [v('mentions', true)]);
      const ids = async (is: 'passed' | 'failed' | 'unscored', more: Partial<Parameters<Store['itemPage']>[1]> = {}) =>
        (await s.itemPage(B, { limit: 10, verdict: { scorer: 'mentions', version: 'v1', is }, ...more })).items.map((i) => i.id);
      expect(await ids('passed')).toEqual(['i0', 'i2', 'i4']);
      expect(await ids('failed')).toEqual(['i1']);
      // i3's only verdict of v1 is null, i5 has none; the failed i6 is not scored at all.
      expect(await ids('unscored')).toEqual(['i3', 'i5']);
      expect(await ids('passed', { text: 'q 2' })).toEqual(['i2']);
      expect(await ids('passed', { sort: 'updated', desc: true })).toHaveLength(3);
      const first = await s.itemPage(B, { limit: 2, verdict: { scorer: 'mentions', version: 'v1', is: 'passed' } });
      expect(first.items.map((i) => i.id)).toEqual(['i0', 'i2']);
      expect(await ids('passed', { after: first.next })).toEqual(['i4']);
    });

    it('names every scorer version with a verdict in the batch, by name then version, and none of another batch', async () => {
      const s = await fresh();
      await batchOf(s, B, 3, [0, 1, 2]);
      await batchOf(s, 'other', 1, [0]);
      expect(await s.scorersJudged(B)).toEqual([]);
      await s.recordVerdicts(B, 'i2', [v('value', null), v('mentions', true, { version: 'v2' })]);
      await s.recordVerdicts(B, 'i0', [v('mentions', false)]);
      await s.recordVerdicts('other', 'i0', [v('exact', true)]);
      expect(await s.scorersJudged(B)).toEqual([
        { name: 'mentions', version: 'v1' },
        { name: 'mentions', version: 'v2' },
        { name: 'value', version: 'v1' },
      ]);
      expect(await s.scorersJudged('no-such-batch')).toEqual([]);
    });
  });
}
