import { decisionWords, deciderName } from '../read/decision-text.js';
import { alongsideVerdicts, scorerVersionsOf, verdictByScorer, type VerdictReads } from '../read/item-verdicts.js';
import { regressionSummary, type ScorerComparison, type VerdictTurn } from '../read/regressions.js';
import { budgetOf } from '../read/spend.js';
import { recordedCost } from '../policy/cost.js';
import { wilson, type Interval } from '../score/stats.js';
import type { Verdict } from '../score/types.js';
import type { BatchRecord, ItemState, ReadStore } from '../store/index.js';
import type { ItemAggregate } from '../store/port.js';

/** The store reads a report makes: counts, export rows and verdicts, each a page at a time. */
export type ReportStore = Pick<ReadStore, 'itemCounts' | 'approvedCost' | 'aggregates'> & VerdictReads;

/** A scorer's pass rate over the completed items, with its 95% Wilson interval (null with nothing judged). */
export interface PassRate {
  scorer: string;
  passed: number;
  failed: number;
  /** Completed items without a pass or fail of this scorer. */
  unscored: number;
  rate: number | null;
  interval: Interval | null;
}

/** What the head of a report says: counts, cost, pass rates, failures, decisions, and regressions against another batch. */
export interface ReportSummary {
  counts: Record<ItemState, number>;
  items: number;
  approvedCost: number;
  budget: number | null;
  passRates: PassRate[];
  /** Every scorer with a verdict on any item, by name: the items table has a column for each. */
  scorers: string[];
  /** Failed and errored items by error code (`none` when the service gave none), most first. */
  failures: { code: string; count: number }[];
  /** Decisions by pause kind, answer in words and who made them, most first. */
  decisions: { tool: string; words: string; decider: string; count: number }[];
  compare: { name: string; paired: number; scorers: ScorerComparison[]; regressed: VerdictTurn[]; fixed: VerdictTurn[]; more: boolean } | null;
}

/** A batch's export rows in file order, each with one verdict per scorer; one page held at a time. */
export async function* rowsWithVerdicts(store: ReportStore, batch: BatchRecord, pageSize = 500): AsyncGenerator<{ row: ItemAggregate; verdicts: Map<string, Verdict> }> {
  const versions = scorerVersionsOf(batch);
  const rows = alongsideVerdicts(store, batch.id, (after, limit) => store.aggregates(batch.id, after, limit), (r) => r.item.seq, pageSize);
  for await (const { row, verdicts } of rows) yield { row, verdicts: verdictByScorer(verdicts, versions) };
}

function countUp<K>(m: Map<string, { key: K; count: number }>, id: string, key: K): void {
  const e = m.get(id);
  if (e) e.count++;
  else m.set(id, { key, count: 1 });
}

/**
 * Reads what a report's head says, over one pass of the batch's rows (memory: the distinct
 * scorers, error codes and decisions, not the items); with `compare`, the regressions
 * against that batch (at most `listed` turned items each way).
 */
export async function gatherReport(store: ReportStore, batch: BatchRecord, o: { compare?: BatchRecord | null; listed?: number; pageSize?: number } = {}): Promise<ReportSummary> {
  const [counts, approvedCost] = await Promise.all([store.itemCounts(batch.id), store.approvedCost(batch.id)]);
  const tallies = new Map<string, { passed: number; failed: number }>();
  const failures = new Map<string, { key: string; count: number }>();
  const decisions = new Map<string, { key: { tool: string; words: string; decider: string }; count: number }>();
  let completed = 0;
  const scorers = new Set<string>();
  for await (const { row, verdicts } of rowsWithVerdicts(store, batch, o.pageSize)) {
    const { item } = row;
    if (item.state === 'failed' || item.state === 'error') countUp(failures, item.errorCode ?? 'none', item.errorCode ?? 'none');
    for (const d of row.decisions) {
      const key = { tool: d.tool, words: decisionWords(d.answer), decider: deciderName(d) };
      countUp(decisions, JSON.stringify(key), key);
    }
    for (const name of verdicts.keys()) scorers.add(name);
    if (item.state !== 'completed') continue;
    completed++;
    for (const [name, v] of verdicts) {
      let t = tallies.get(name);
      if (!t) tallies.set(name, (t = { passed: 0, failed: 0 }));
      if (v.pass === true) t.passed++;
      else if (v.pass === false) t.failed++;
    }
  }
  const passRates = [...tallies].map(([scorer, t]): PassRate => {
    const n = t.passed + t.failed;
    return { scorer, passed: t.passed, failed: t.failed, unscored: completed - n, rate: n > 0 ? t.passed / n : null, interval: wilson(t.passed, n) };
  });
  const most = <T>(m: Map<string, { key: T; count: number }>) => [...m.values()].sort((x, y) => y.count - x.count);
  const other = o.compare ?? null;
  return {
    counts,
    items: Object.values(counts).reduce((a, b) => a + b, 0),
    approvedCost: recordedCost(approvedCost),
    budget: budgetOf(batch.policy),
    passRates: passRates.sort((x, y) => x.scorer.localeCompare(y.scorer)),
    scorers: [...scorers].sort((x, y) => x.localeCompare(y)),
    failures: most(failures).map((e) => ({ code: e.key, count: e.count })),
    decisions: most(decisions).map((e) => ({ ...e.key, count: e.count })),
    compare: other ? { name: other.name, ...(await regressionSummary(store, other, batch, o.listed ?? 200)) } : null,
  };
}
