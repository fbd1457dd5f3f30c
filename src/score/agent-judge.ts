import { InputError } from '../errors.js';
import type { Store } from '../store/port.js';
import type { ItemRecord } from '../store/types.js';
import type { Judgement } from './judgement.js';
import type { ScorerSpec } from './types.js';

/** What the agent judge works with: the store and the batch of the item it judges. */
export interface AgentJudgeContext {
  store: Store;
  batchId: string;
  signal?: AbortSignal;
}

/** An agent's judgement, with what judged (`agent:<run id>`). */
export interface AgentJudgement extends Judgement {
  by: string;
}

/**
 * Judges one completed item by an `agent` scorer: a research run at the service with the
 * rubric, the question, the expected answer and the answer (the agent judge, built apart).
 * @throws {InputError} until the agent judge is built.
 */
export async function judgeWithAgent(spec: ScorerSpec, item: ItemRecord, ctx: AgentJudgeContext): Promise<AgentJudgement> {
  void item;
  void ctx;
  throw new InputError(`scorer "${spec.name}": agent scorers are not built yet`);
}
