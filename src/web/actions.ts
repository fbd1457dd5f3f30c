import type { AnswerResult, PersonReply } from '../runner/operations/answer.js';
import type { BulkAnswerResult, ListedPause } from '../runner/operations/answer-bulk.js';
import type { CancelService } from '../runner/operations/cancel.js';
import type { RetryState } from '../runner/operations/retry.js';
import type { BatchRecord, ReadStore, TransitionStore } from '../store/index.js';

/** What the page may change, each through the library's batch operation the CLI calls. */
export interface WebActions {
  /** Records a person's answer to the held pause they saw (its run; with their name, held to the budget unless `overBudget`). */
  answer(batch: BatchRecord, itemId: string, who: { person: string; runId: string; overBudget: boolean }, reply: PersonReply): Promise<AnswerResult>;
  /** Answers each listed pause with the same reply, one decision each; those answered or paused again meanwhile are skipped and said. */
  answerMany(batch: BatchRecord, listed: readonly ListedPause[], who: { person: string; overBudget: boolean }, reply: PersonReply): Promise<BulkAnswerResult>;
  /** Puts finished items back in the queue for the batch's workers; returns how many. */
  retry(batch: BatchRecord, o: { states?: RetryState[]; items?: string[] }): Promise<number>;
  /** Stops the batch: nothing queued is sent; runs in flight are cancelled where the service allows it. */
  cancel(batch: BatchRecord): Promise<{ queued: number; cancelled: number; left: number; reason: string | null }>;
}

/** Options of {@link libraryActions}. */
export interface LibraryActionsOptions {
  /**
   * Opens the service of a batch, to cancel its runs in flight (the API key stays in the
   * server). Without it, a cancel stops the batch and leaves runs in flight to finish.
   */
  connect?: (batch: BatchRecord) => Promise<CancelService>;
}

/** The library's operations (src/runner/operations) over one store: the same checks as the CLI's. */
export function libraryActions(store: ReadStore & TransitionStore, o: LibraryActionsOptions = {}): WebActions {
  return {
    async answer(batch, itemId, who, reply) {
      const { answerHeldItem } = await import('../runner/operations/answer.js');
      return answerHeldItem(store, batch, itemId, reply, who);
    },
    async answerMany(batch, listed, who, reply) {
      const { answerListedPauses } = await import('../runner/operations/answer-bulk.js');
      return answerListedPauses(store, batch, listed, reply, who);
    },
    async retry(batch, s) {
      const { retryItems, retrySelection } = await import('../runner/operations/retry.js');
      // The selection `resq retry` makes from the same request: named items whatever they ended in.
      const report = await retryItems(store, batch, retrySelection(s));
      return report.moved.length;
    },
    async cancel(batch) {
      const { cancelBatch } = await import('../runner/operations/cancel.js');
      const connect = o.connect;
      const r = await cancelBatch(store, batch, connect ? { connect: () => connect(batch) } : {});
      return { queued: r.queued, cancelled: r.cancelled.length, left: r.left.length, reason: r.reason };
    },
  };
}
