import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/port.js';
import type { NewBatch, RunSnapshot } from '../../src/store/shapes.js';
import type { ItemPageQuery } from '../../src/store/item-page-shapes.js';
import { snap } from './snapshot.js';

/**
 * The contract of the web view's read projections (itemPage, batchLive, runMinutes), written
 * against `Store` only: SQLite and PostgreSQL pass it unchanged.
 */

const NOW = 1_700_000_000_000;
const B = 'wb';

function newBatch(): NewBatch {
  return {
    id: B,
    name: 'web-batch',
    kind: 'runs',
    sourcePath: '/data/web.csv',
    sourceSha256: 'sha',
    baseUrl: 'http://svc/api/v1',
    settings: { concurrency: 4, follow: 'sse', download: { enabled: false, concurrency: 2, out: null }, pipelineFile: null, service: 'sim' },
    policy: null,
  };
}

/** Items i0..i(n-1); meta.group is "even"/"odd", meta.n the number, meta.flag true on multiples of 5. */
async function load(store: Store, n: number): Promise<void> {
  const loader = await store.beginBatchLoad(newBatch());
  for (let i = 0; i < n; i++)
    await loader.add({ id: `i${String(i).padStart(3, '0')}`, seq: i, line: i + 2, question: `Question number ${i}${i === 7 ? ' about Zebras' : ''}`, threadKey: null, meta: { group: i % 2 ? 'odd' : 'even', n: i, flag: i % 5 === 0 } });
  await loader.flush();
  await loader.commit([]);
}

/** Walks every page of a query; returns the ids in the order shown. */
async function walk(store: Store, q: Omit<ItemPageQuery, 'after'>): Promise<string[]> {
  const out: string[] = [];
  let after: string | null = null;
  for (let guard = 0; guard < 1000; guard++) {
    const page = await store.itemPage(B, { ...q, after });
    expect(page.items.length).toBeLessThanOrEqual(q.limit);
    out.push(...page.items.map((i) => i.id));
    if (!page.next) return out;
    after = page.next;
  }
  throw new Error('no end');
}

/** Registers the web projections' contract for one adapter. */
export function webReadsContract(name: string, makeStore: () => Promise<Store>): void {
  describe(`web read projections: ${name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await makeStore();
    });
    afterEach(async () => {
      await store.close();
    });

    /** Moves items through claims and runs: the first `done` complete, then one held, one running. */
    async function advance(done: number): Promise<void> {
      const w = (await store.registerWorker(B, { host: 'h', pid: 1 }, NOW)).id;
      const claim = await store.claimItems(B, { workerId: w, leaseMs: 60_000, max: done + 2, cap: done + 2, afterSeq: -1 }, NOW);
      const items = claim.items;
      for (const [k, it] of items.entries()) {
        const run = await store.markAdmitted(it, { id: `r-${it.id}`, status: 'running', threadId: null, step: 0, parentRunId: null, idempotencyKey: it.pendingKey! });
        if (k < done) await store.markFinished(run, snap(`r-${it.id}`), 'completed');
        else if (k === done)
          await store.markPaused(run, snap(`r-${it.id}`, { status: 'requires_action', requiredAction: { tool: 'confirm_scope', input: { cost: 99 } } }), () => ({ kind: 'hold', reason: 'over budget' }));
      }
    }

    it('pages by cursor in file order, both directions, every item once', async () => {
      await load(store, 23);
      const all = Array.from({ length: 23 }, (_, i) => `i${String(i).padStart(3, '0')}`);
      expect(await walk(store, { limit: 5 })).toEqual(all);
      expect(await walk(store, { limit: 5, desc: true })).toEqual([...all].reverse());
      expect(await walk(store, { limit: 7, sort: 'id' })).toEqual(all);
      const first = await store.itemPage(B, { limit: 2 });
      expect(first.items[0]).toMatchObject({ id: 'i000', seq: 0, state: 'queued', question: 'Question number 0', answer: null, meta: { group: 'even', n: 0, flag: true } });
      expect((await store.itemPage(B, { limit: 50 })).next).toBeNull();
    });

    it('pages back by `before` (a page\'s `prev`) to the first page, the same pages as forward, in each order', async () => {
      await load(store, 23);
      for (const q of [{ limit: 5 }, { limit: 5, desc: true }, { limit: 7, sort: 'id' as const }, { limit: 4, meta: { key: 'group', value: 'odd' } }]) {
        const forward: string[][] = [];
        let page = await store.itemPage(B, q);
        expect(page.prev).toBeNull();
        forward.push(page.items.map((i) => i.id));
        while (page.next) {
          page = await store.itemPage(B, { ...q, after: page.next });
          expect(page.prev).not.toBeNull();
          forward.push(page.items.map((i) => i.id));
        }
        const back: string[][] = [forward.at(-1)!];
        while (page.prev) {
          page = await store.itemPage(B, { ...q, before: page.prev });
          expect(page.next).not.toBeNull();
          back.unshift(page.items.map((i) => i.id));
        }
        expect(back).toEqual(forward);
      }
      // A cursor that is not one the store made: the first page.
      expect((await store.itemPage(B, { limit: 2, before: 'garbage!' })).items.map((i) => i.id)).toEqual(['i000', 'i001']);
    });

    it('filters by state, meta field (text, number, boolean) and text, with the cursor', async () => {
      await load(store, 30);
      await advance(4);
      expect(await walk(store, { limit: 2, states: ['completed'] })).toEqual(['i000', 'i001', 'i002', 'i003']);
      expect(await walk(store, { limit: 2, states: ['held'] })).toEqual(['i004']);
      expect(await walk(store, { limit: 3, states: ['held', 'running'] })).toEqual(['i004', 'i005']);
      expect((await walk(store, { limit: 4, states: ['queued'] })).length).toBe(24);
      expect(await walk(store, { limit: 4, meta: { key: 'group', value: 'odd' }, states: ['completed'] })).toEqual(['i001', 'i003']);
      expect(await walk(store, { limit: 2, meta: { key: 'n', value: '17' } })).toEqual(['i017']);
      expect(await walk(store, { limit: 2, meta: { key: 'flag', value: 'true' } })).toEqual(['i000', 'i005', 'i010', 'i015', 'i020', 'i025']);
      expect(await walk(store, { limit: 2, meta: { key: 'missing', value: 'x' } })).toEqual([]);
      expect(await walk(store, { limit: 2, text: 'ZEBRA' })).toEqual(['i007']);
      expect(await walk(store, { limit: 2, text: 'answer of r-i002' })).toEqual(['i002']);
      expect(await store.itemPage(B, { limit: 5, states: [] })).toEqual({ items: [], next: null, prev: null });
    });

    it('sorts started items by their latest change, newest first', async () => {
      await load(store, 8);
      await advance(3);
      const byUpdate = await walk(store, { limit: 2, sort: 'updated', desc: true });
      expect(byUpdate.sort()).toEqual(['i000', 'i001', 'i002', 'i003', 'i004']);
      const page = await store.itemPage(B, { limit: 10, sort: 'updated', desc: true });
      const times = page.items.map((i) => i.updatedAt);
      expect([...times].sort().reverse()).toEqual(times);
      expect(page.items.every((i) => i.state !== 'queued')).toBe(true);
    });

    it('a cursor that is not one the store made starts from the first page', async () => {
      await load(store, 3);
      expect((await store.itemPage(B, { limit: 1, after: 'garbage!' })).items[0]!.id).toBe('i000');
    });

    it('batchLive: runs in flight, the adaptive cap, the held queue and the finished span', async () => {
      await load(store, 10);
      expect(await store.batchLive(B, 5)).toEqual({ inFlight: 0, capLimit: null, held: [], span: { first: null, last: null } });
      await advance(2);
      await store.setCapLimit(B, 2);
      const live = await store.batchLive(B, 5);
      expect(live.inFlight).toBe(1);
      expect(live.capLimit).toBe(2);
      expect(live.held).toEqual([{ id: 'i002', question: 'Question number 2', tool: 'confirm_scope', holdReason: 'over budget', updatedAt: expect.any(String) }]);
      expect(live.span.first).not.toBeNull();
      expect(live.span.last! >= live.span.first!).toBe(true);
      expect(await store.batchLive(B, 0)).toMatchObject({ held: [] });
    });

    it('batchLive in flight: submitting, running and waiting under a lease; not held, nor answered and not yet sent', async () => {
      await load(store, 6);
      const w = (await store.registerWorker(B, { host: 'h', pid: 1 }, NOW)).id;
      const [a, b, c, d] = (await store.claimItems(B, { workerId: w, leaseMs: 60_000, max: 4, cap: 10, afterSeq: -1 }, NOW)).items;
      expect((await store.batchLive(B, 5)).inFlight).toBe(4);
      const admit = (it: typeof a) => store.markAdmitted(it!, { id: `r-${it!.id}`, status: 'running', threadId: null, step: 0, parentRunId: null, idempotencyKey: it!.pendingKey! });
      const [ra, rb, rc] = [await admit(a), await admit(b), await admit(c)];
      const pause = snap('x', { status: 'requires_action', requiredAction: { tool: 'confirm_scope', input: { cost: 1 } } });
      // Answered by the policy at once: waiting, still under its worker's lease.
      await store.markPaused(ra, { ...pause, id: 'r-i000' }, () => ({ kind: 'answer', decision: { runId: 'r-i000', tool: 'confirm_scope', input: {}, answer: { approve: true }, by: 'policy', reason: null, cost: 1 }, nextKey: 'k1' }));
      expect((await store.batchLive(B, 5)).inFlight).toBe(4);
      // Held for a person: out of flight; answered by the person: waiting with no lease, still out.
      await store.markPaused(rb, { ...pause, id: 'r-i001' }, () => ({ kind: 'hold', reason: 'person' }));
      expect((await store.batchLive(B, 5)).inFlight).toBe(3);
      await store.answerHeld(B, 'i001', { runId: 'r-i001', tool: 'confirm_scope', input: {}, answer: { approve: true }, by: 'person', reason: null, cost: 1 }, 'k2');
      expect((await store.getItem(B, 'i001'))!).toMatchObject({ state: 'waiting', leaseUntil: null });
      expect((await store.batchLive(B, 5)).inFlight).toBe(3);
      await store.markFinished(rc, snap('r-i002'), 'completed');
      expect(await store.markError(B, d!.id, 'bad')).toMatchObject({ state: 'error' });
      expect((await store.batchLive(B, 5)).inFlight).toBe(1);
    });

    it('runMinutes counts runs admitted and finished per minute', async () => {
      await load(store, 6);
      expect(await store.runMinutes(B)).toEqual([]);
      await advance(3);
      const minutes = await store.runMinutes(B);
      expect(minutes.reduce((s, m) => s + m.admitted, 0)).toBe(5);
      expect(minutes.reduce((s, m) => s + m.finished, 0)).toBe(4);
      for (const m of minutes) expect(m.minute).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d$/);
    });
  });
}
