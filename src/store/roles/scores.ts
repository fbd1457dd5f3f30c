import type { ItemVerdicts, ScorerRef, ScorerTotals, Verdict } from '../../score/types.js';
import type { ItemRecord } from '../types.js';

/** One item's verdicts to record. */
export interface ItemVerdictsToRecord {
  itemId: string;
  /**
   * The item's seq, as the caller read it with `itemId` (`resq score`): the item is found by it,
   * next to the last one (SQLite); a seq that is not `itemId`'s is refused like a missing item.
   */
  seq?: number;
  verdicts: readonly Verdict[];
}

/** Which completed items a scorer has still to judge (`itemsToScore`). */
export interface ScoreQuery {
  /** Every completed item, judged or not (`resq score --rescore`). */
  rescore?: boolean;
  /** Only items after this seq (the previous page's last). */
  afterSeq: number;
  /** At most this many items. */
  limit: number;
}

/**
 * The scores role: each scorer's verdict per item and scorer version (migration
 * 029_expected_and_verdicts), what is left to judge, and the counts and pages readers show.
 */
export interface ScoreStore {
  /** Records an item's verdicts, each replacing the one of its scorer and version. */
  recordVerdicts(batchId: string, itemId: string, verdicts: readonly Verdict[]): Promise<void>;
  /** Records many items' verdicts in one transaction (`resq score`'s page), each as {@link recordVerdicts} would. */
  recordVerdictsMany(batchId: string, items: readonly ItemVerdictsToRecord[]): Promise<void>;
  /** An item's verdicts, by scorer name then version. */
  verdictsOf(batchId: string, itemId: string): Promise<Verdict[]>;
  /**
   * Each scorer's counts over the batch's completed items, in the order given: passed, failed,
   * and unscored (a null verdict, or none of that version).
   */
  scoreTotals(batchId: string, scorers: readonly ScorerRef[]): Promise<ScorerTotals[]>;
  /** Completed items after `afterSeq` lacking a verdict of that scorer version (all of them with `rescore`), in seq order. */
  itemsToScore(batchId: string, scorer: ScorerRef, q: ScoreQuery): Promise<ItemRecord[]>;
  /** Items after `afterSeq` that have verdicts, in seq order, at most `limit`, each with all its verdicts. */
  verdictsPage(batchId: string, q: { afterSeq: number; limit: number }): Promise<ItemVerdicts[]>;
  /** Every scorer version with a verdict in the batch, by name then version: what windows show when the batch names no scorers. */
  scorersJudged(batchId: string): Promise<ScorerRef[]>;
}
