import { checkPolicy, type Policy } from '../policy/index.js';
import { rulesOf } from '../policy/check.js';
import type { ItemState } from '../store/item-states.js';
import type { NotebookStore } from '../store/roles/notebook.js';
import type { ReadStore } from '../store/port.js';
import type { PauseRecord } from '../store/shapes.js';
import type { BatchRecord } from '../store/types.js';

/** States of a reference item that ran: the sample a forecast is made from. */
export const RAN_STATES: readonly ItemState[] = ['running', 'waiting', 'held', 'completed', 'failed', 'error'];

/** What one batch that ran teaches a forecast: one value per question that ran. */
export interface BatchSample {
  costs: number[];
  holds: number[];
  seconds: number[];
  /** The batch's pauses, as recorded. */
  pauses: PauseRecord[];
}

/**
 * A batch's items that ran, each as the cost `policy`'s rules would approve on its pauses replayed
 * (with what people approved on those they would hold), the pauses they would hold and the
 * seconds its runs took (not the time they waited for a person); empty when nothing of it ran.
 * The rules without the batch_budget: what a question costs is learned whole, and the budget is
 * held against the total (a reference batch that hit its budget would otherwise teach that the
 * questions it held cost nothing).
 */
export async function batchSample(store: Pick<ReadStore, 'batchPauses'> & Pick<NotebookStore, 'queryItems' | 'itemStats'>, batch: BatchRecord, policy: Policy | null): Promise<BatchSample> {
  const ran = await store.queryItems(batch.id, { states: RAN_STATES });
  const stats = await store.itemStats(batch.id);
  const pauses = await store.batchPauses(batch.id);
  const held = new Map<string, number>();
  const approved = new Map<string, number>();
  for (const x of checkPolicy(rulesOf(policy), pauses).replay) {
    if (x.verdict === 'hold') held.set(x.itemId, (held.get(x.itemId) ?? 0) + 1);
    approved.set(x.itemId, (approved.get(x.itemId) ?? 0) + x.cost);
  }
  const out: BatchSample = { costs: [], holds: [], seconds: [], pauses };
  for (const it of ran) {
    const s = stats.get(it.id);
    out.costs.push(approved.get(it.id) ?? 0);
    out.holds.push(held.get(it.id) ?? 0);
    if (s && s.runSeconds > 0) out.seconds.push(s.runSeconds);
  }
  return out;
}
