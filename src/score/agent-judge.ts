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
 * An `agent` scorer does not judge one item at a time here: its judgings are the items of a
 * batch of their own, run by the batch runner (score/agent-judging.ts `judgeByAgent`, which
 * `resq score` and `run --score` call). Callers leave agent scorers out (worker-scorers.ts,
 * `resq score`); one that reaches here is refused plainly.
 * @throws {InputError} always.
 */
export async function judgeWithAgent(spec: ScorerSpec, item: ItemRecord, ctx: AgentJudgeContext): Promise<AgentJudgement> {
  void item;
  void ctx;
  throw new InputError(`scorer "${spec.name}": an agent scorer judges through its judge batch (resq score), not one item at a time`);
}
