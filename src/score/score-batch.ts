import type { Clock } from '../clock.js';
import type { Store } from '../store/port.js';
import { judgeItem } from './judge-item.js';
import type { ScorerSpec, ScorerTotals } from './types.js';

/** How far `scoreBatch` is with a scorer. */
export interface ScoreProgress {
  scorer: string;
  /** Items judged by it so far. */
  done: number;
  /** At most this many to judge (its unscored items, or every completed one with rescore). */
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
  /** Items read and recorded at a time (memory stays flat however large the batch). @default 1000 */
  pageSize?: number;
  clock?: Clock;
  /** Told after each page. */
  onProgress?: (p: ScoreProgress) => void;
  signal?: AbortSignal;
}

/** What `scoreBatch` did: how many verdicts it recorded, and each scorer's totals after. */
export interface ScoreBatchResult {
  judged: number;
  totals: ScorerTotals[];
}

/** Items of a page judged at once by programs (`command` scorers); local scorers judge one after another. */
const PROGRAMS_AT_ONCE = 4;

/**
 * Scores a batch's completed items (`resq score`): for each scorer, every item lacking its
 * verdict of that scorer's version (`rescore`: all), page by page in seq order, each page's
 * verdicts recorded together. Local scorers send nothing to the service.
 * @throws {ResqError} when a scorer cannot judge at all (an agent scorer without its judge).
 */
export async function scoreBatch(o: ScoreBatchOptions): Promise<ScoreBatchResult> {
  const size = o.pageSize ?? 1000;
  const base = { store: o.store, batchId: o.batchId, strict: true, ...(o.clock ? { clock: o.clock } : {}), ...(o.signal ? { signal: o.signal } : {}) };
  let judged = 0;
  for (const spec of o.scorers) {
    const ref = { name: spec.name, version: spec.version };
    const [before] = await o.store.scoreTotals(o.batchId, [ref]);
    const total = o.rescore ? before!.passed + before!.failed + before!.unscored : before!.unscored;
    let done = 0;
    let after = -1;
    o.onProgress?.({ scorer: spec.name, done, total });
    for (;;) {
      o.signal?.throwIfAborted();
      const page = await o.store.itemsToScore(o.batchId, ref, { rescore: o.rescore ?? false, afterSeq: after, limit: size });
      if (page.length === 0) break;
      const at = spec.kind === 'command' || spec.kind === 'agent' ? PROGRAMS_AT_ONCE : page.length;
      for (let i = 0; i < page.length; i += at) {
        const slice = page.slice(i, i + at);
        const verdicts = await Promise.all(slice.map((item) => judgeItem(item, [spec], base)));
        // One turn: the SQLite adapter commits them in one transaction.
        await Promise.all(slice.map((item, k) => o.store.recordVerdicts(o.batchId, item.id, verdicts[k]!)));
      }
      after = page[page.length - 1]!.seq;
      done += page.length;
      judged += page.length;
      o.onProgress?.({ scorer: spec.name, done, total: Math.max(total, done) });
    }
  }
  return { judged, totals: await o.store.scoreTotals(o.batchId, o.scorers.map((s) => ({ name: s.name, version: s.version }))) };
}

/** A scorer's pass rate: passed over passed and failed (unscored items left out); null when none was judged. */
export function passRate(t: ScorerTotals): number | null {
  const n = t.passed + t.failed;
  return n === 0 ? null : t.passed / n;
}
