import { type Clock, isoNow, systemClock } from '../clock.js';
import type { ItemVerdictsToRecord, Store } from '../store/port.js';
import type { ItemRecord } from '../store/types.js';
import { judgeItem } from './judge-item.js';
import { judgedBy, verdictOf } from './judgement.js';
import { judgeLocally } from './local-scorers.js';
import type { ScorerSpec, ScorerTotals } from './types.js';

/** How far `scoreBatch` is. */
export interface ScoreProgress {
  /** Items judged so far (each by every scorer it lacked). */
  done: number;
  /** At most this many to judge: the batch's completed items. */
  total: number;
}

/** What `scoreBatch` is asked. */
export interface ScoreBatchOptions {
  store: Store;
  batchId: string;
  /** The scorers, as this process's own command line gave them (a `command` scorer runs here). */
  scorers: readonly ScorerSpec[];
  /** Judge every completed item again, not only those lacking a verdict of the scorer's version. */
  rescore?: boolean;
  /** Items read and recorded at a time (memory stays flat however large the batch). @default 5000 */
  pageSize?: number;
  clock?: Clock;
  /** Told before the first page and after each. */
  onProgress?: (p: ScoreProgress) => void;
  signal?: AbortSignal;
}

/** What `scoreBatch` did: how many verdicts it recorded, and each scorer's totals after. */
export interface ScoreBatchResult {
  judged: number;
  totals: ScorerTotals[];
}

/** Items of a page judged at once by programs (`command` scorers) or the agent judge. */
const PROGRAMS_AT_ONCE = 4;

/** Whether a scorer judges from the item alone, at once (no files to read, no program, no service). */
const isPure = (s: ScorerSpec): boolean => s.kind !== 'command' && s.kind !== 'agent' && s.kind !== 'files';

/** A page of work: each item with the scorers it lacks, and the seq the page ends at (null: the batch's end). */
interface Page {
  work: { item: ItemRecord; specs: readonly ScorerSpec[] }[];
  end: number | null;
}

/**
 * The next page when most items lack every scorer (a first scoring): the completed items after
 * `after` read once, less the verdicts the batch has in that stretch (none, mostly).
 */
async function pageOfAll(o: ScoreBatchOptions, after: number, size: number): Promise<Page> {
  const first = o.scorers[0]!;
  const items = await o.store.itemsToScore(o.batchId, { name: first.name, version: first.version }, { rescore: true, afterSeq: after, limit: size });
  if (items.length === 0) return { work: [], end: null };
  const last = items[items.length - 1]!.seq;
  const have = new Map<number, Set<string>>();
  if (!o.rescore)
    for (let from = after; ; ) {
      const judged = await o.store.verdictsPage(o.batchId, { afterSeq: from, limit: size });
      for (const j of judged) if (j.seq <= last) have.set(j.seq, new Set(j.verdicts.map((v) => `${v.scorer}\0${v.version}`)));
      if (judged.length < size || judged[judged.length - 1]!.seq >= last) break;
      from = judged[judged.length - 1]!.seq;
    }
  // An item with no verdict yet (most, on a first scoring) shares the list of every scorer.
  const work = items.map((item) => {
    const h = have.get(item.seq);
    return { item, specs: h ? o.scorers.filter((s) => !h.has(`${s.name}\0${s.version}`)) : o.scorers };
  });
  return { work: have.size > 0 ? work.filter((w) => w.specs.length > 0) : work, end: items.length < size ? null : last };
}

/**
 * The next page when scorers have judged much of the batch: each scorer's list of what it lacks
 * read up to `size` items; the page ends where the shortest full list ends, so every list is
 * whole up to there.
 */
async function pageOfEach(o: ScoreBatchOptions, after: number, size: number): Promise<Page> {
  const lists = await Promise.all(o.scorers.map((s) => o.store.itemsToScore(o.batchId, { name: s.name, version: s.version }, { rescore: false, afterSeq: after, limit: size })));
  let end: number | null = null;
  for (const l of lists) if (l.length >= size) end = Math.min(end ?? Infinity, l[l.length - 1]!.seq);
  const bySeq = new Map<number, { item: ItemRecord; specs: ScorerSpec[] }>();
  lists.forEach((l, k) => {
    for (const item of l) {
      if (end !== null && item.seq > end) break;
      const w = bySeq.get(item.seq);
      if (w) w.specs.push(o.scorers[k]!);
      else bySeq.set(item.seq, { item, specs: [o.scorers[k]!] });
    }
  });
  return { work: [...bySeq.values()].sort((a, b) => a.item.seq - b.item.seq), end };
}

/**
 * Scores a batch's completed items (`resq score`): every item lacking a verdict of a scorer's
 * version (`rescore`: every completed item), judged by each scorer it lacks, page by page in
 * seq order, each page's verdicts recorded in one transaction. Local scorers send nothing to
 * the service; a scorer that fails on an item leaves it unscored with the reason.
 * @throws {ResqError} when a scorer cannot judge at all (an agent scorer without its judge).
 */
export async function scoreBatch(o: ScoreBatchOptions): Promise<ScoreBatchResult> {
  const size = o.pageSize ?? 5000;
  const clock = o.clock ?? systemClock;
  const refs = o.scorers.map((s) => ({ name: s.name, version: s.version }));
  // The kept counts by state: how many there are to judge at most.
  const total = (await o.store.itemCounts(o.batchId)).completed;
  // Most items lacking every scorer (a first scoring, a rescore): the batch read once a page; else each scorer's own list.
  // One scorer: its own list is read once too.
  const fresh = o.rescore || o.scorers.length < 2 || (await o.store.verdictsPage(o.batchId, { afterSeq: -1, limit: 1 })).length === 0;
  const judgedBefore = fresh ? 0 : Math.max(...(await o.store.scoreTotals(o.batchId, refs)).map((t) => t.passed + t.failed));
  const nextPage = o.rescore ? pageOfAll : o.scorers.length < 2 || judgedBefore >= total / 2 ? pageOfEach : pageOfAll;
  const base = { store: o.store, batchId: o.batchId, clock, strict: true, ...(o.signal ? { signal: o.signal } : {}) };
  let judged = 0;
  let done = 0;
  let after = -1;
  o.onProgress?.({ done, total });
  for (;;) {
    o.signal?.throwIfAborted();
    const { work, end } = await nextPage(o, after, size);
    if (work.length === 0 && end === null) break;
    const at = isoNow(clock);
    const out: ItemVerdictsToRecord[] = new Array(work.length);
    const slow: number[] = [];
    work.forEach((w, i) => {
      if (!w.specs.every(isPure)) return void slow.push(i);
      out[i] = { itemId: w.item.id, seq: w.item.seq, verdicts: w.specs.map((s) => verdictOf(s, judgeLocally(s, { id: w.item.id, question: w.item.question, expected: w.item.expected, text: w.item.text }), at, judgedBy(s))) };
    });
    for (let i = 0; i < slow.length; i += PROGRAMS_AT_ONCE) {
      const part = slow.slice(i, i + PROGRAMS_AT_ONCE);
      const verdicts = await Promise.all(part.map((k) => judgeItem(work[k]!.item, work[k]!.specs, base)));
      part.forEach((k, j) => (out[k] = { itemId: work[k]!.item.id, seq: work[k]!.item.seq, verdicts: verdicts[j]! }));
    }
    await o.store.recordVerdictsMany(o.batchId, out);
    for (const r of out) judged += r.verdicts.length;
    done += work.length;
    o.onProgress?.({ done, total: Math.max(total, done) });
    if (end === null) break;
    after = end;
  }
  return { judged, totals: await o.store.scoreTotals(o.batchId, refs) };
}

/** A scorer's pass rate: passed over passed and failed (unscored items left out); null when none was judged. */
export function passRate(t: ScorerTotals): number | null {
  const n = t.passed + t.failed;
  return n === 0 ? null : t.passed / n;
}
