import { type Answerer, type AnswerResult, answerHeldItem, pauseWaiting, type PersonReply } from '../../src/runner/operations/answer.js';
import type { BatchRecord, ReadStore, TransitionStore } from '../../src/store/index.js';

/**
 * A person's answer to the pause a held item waits on now (read first, as `resq answer`
 * without `--run` does): for tests whose subject is not which pause is answered.
 */
export async function answerWaiting(
  store: ReadStore & TransitionStore,
  batch: BatchRecord,
  itemId: string,
  reply: PersonReply,
  who: Omit<Answerer, 'runId'> = {},
): Promise<AnswerResult> {
  const { runId } = await pauseWaiting(store, batch, itemId);
  return answerHeldItem(store, batch, itemId, reply, { ...who, runId });
}
