import type { Clock } from '../clock.js';
import type { Store } from '../store/port.js';
import type { ItemRecord } from '../store/types.js';
import { judgeItem } from './judge-item.js';
import type { ScorerSpec } from './types.js';

/**
 * The scorers a worker judges each completed item with: those its own command line gave
 * (`--score`, a `command` scorer among them), else the batch's stored ones but `command`
 * scorers (a program runs only where its own command line named it, never from what the
 * database holds). `agent` scorers are left to the agent judge's wiring.
 */
export function workerScorers(stored: readonly ScorerSpec[] | undefined, own: readonly ScorerSpec[] | null | undefined): ScorerSpec[] {
  const from = own ?? (stored ?? []).filter((s) => s.kind !== 'command');
  return from.filter((s) => s.kind !== 'agent');
}

/**
 * The `agent` scorers a worker's run judges with as each item completes (score/judge-alongside.ts):
 * those its own command line gave, else the batch's stored ones; none for an agent judge's own
 * companion batch (a judging is not judged again).
 */
export function agentScorers(batch: { settings: { scorers?: readonly ScorerSpec[] | undefined; judgeOf?: string | undefined } }, own: readonly ScorerSpec[] | null | undefined): ScorerSpec[] {
  if (batch.settings.judgeOf !== undefined) return [];
  return (own ?? batch.settings.scorers ?? []).filter((s) => s.kind === 'agent');
}

/**
 * What judges an item a worker completed and records its verdicts: a scorer's failure is its
 * unscored verdict; a failure to record is told to `onProblem` and left for `resq score` (it
 * judges what lacks a verdict); it never fails the item. Null when there is nothing to judge with.
 */
export function completedScorer(
  store: Store,
  batchId: string,
  specs: readonly ScorerSpec[],
  o: { clock?: Clock; onProblem?: (message: string) => void } = {},
): ((item: ItemRecord) => Promise<void>) | null {
  if (specs.length === 0) return null;
  return async (item) => {
    try {
      const verdicts = await judgeItem(item, specs, { store, batchId, ...(o.clock ? { clock: o.clock } : {}) });
      await store.recordVerdicts(batchId, item.id, verdicts);
    } catch (e) {
      // The item stays completed; `resq score` judges what lacks a verdict.
      o.onProblem?.(`item ${item.id}: its verdicts were not recorded (${e instanceof Error ? e.message : String(e)}); \`resq score\` judges it`);
    }
  };
}
