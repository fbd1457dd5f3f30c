import { exportStatus, runSeconds, type ExportStatus } from '../store/export-rows.js';
import type { NotebookStore } from '../store/port.js';
import type { ItemStats, MetaValue, RunTime } from '../store/shapes.js';
import { ITEM_STATES } from '../store/item-states.js';
import type { ItemRecord, ItemState } from '../store/types.js';

/** Which items to list; every given condition must hold. */
export interface ItemFilter {
  /** Only items in this status (or any of these), as exports name them. */
  status?: ExportStatus | readonly ExportStatus[];
  /** true: only items held for a person; false: none of them. */
  held?: boolean;
  /** true: only failed or errored items; false: none of them. */
  failed?: boolean;
  /** Meta fields (the question set's extra columns) that must equal a value, or one of a list: `{ topic: 'chemistry' }`. */
  meta?: Record<string, MetaValue | readonly MetaValue[]>;
  /** Case-insensitive text found in the id, question, answer, error or hold reason. */
  text?: string;
  /** At most this many items. */
  limit?: number;
}

/** One item as a plain row: what a table of results shows. */
export interface ItemRow {
  id: string;
  status: ExportStatus;
  run_status: string | null;
  question: string;
  /** The answer (Markdown), or the text so far. */
  text: string | null;
  /** Why it failed: the service's message verbatim, or resq's for a refused request. */
  error: string | null;
  /** The service's error code (`agent_error`, …), or null. */
  error_code: string | null;
  hold_reason: string | null;
  /** Runs in the item's chain. */
  runs: number;
  decisions: number;
  /** Cost of the plans approved for this item. */
  cost: number;
  files: number;
  /**
   * Seconds the item's runs ran (each run from its start to its end, summed over the chain),
   * not the time between them (a batch stopped and resumed later, a pause waiting for a
   * person); null while unfinished.
   */
  seconds: number | null;
  thread_id: string | null;
  meta: Record<string, unknown>;
}

/** The status an export reports for a state (the store's export projection decides it). */
export const statusOf: (state: ItemState) => ExportStatus = exportStatus;

/** The item states a filter allows, or undefined for all of them. */
export function statesFor(f: ItemFilter): ItemState[] | undefined {
  if (f.status === undefined && f.held === undefined && f.failed === undefined) return undefined;
  const statuses: readonly ExportStatus[] | null = f.status === undefined ? null : typeof f.status === 'string' ? [f.status as ExportStatus] : (f.status as readonly ExportStatus[]);
  return ITEM_STATES.filter((s) => {
    if (statuses && !statuses.includes(statusOf(s))) return false;
    if (f.held !== undefined && (s === 'held') !== f.held) return false;
    if (f.failed !== undefined && (s === 'failed' || s === 'error') !== f.failed) return false;
    return true;
  });
}

/** The states an item ends in: its runs' time is final. */
const FINAL: ReadonlySet<ItemState> = new Set(['completed', 'failed', 'error', 'cancelled']);

/** Turns an item, its statistics and its runs' times into a plain row. */
export function itemRow(it: ItemRecord, stats: ItemStats | undefined, runTimes: Pick<RunTime, 'createdAt' | 'finishedAt' | 'seconds'>[] = []): ItemRow {
  return {
    id: it.id,
    status: statusOf(it.state),
    run_status: it.runStatus,
    question: it.question,
    text: it.text,
    error: it.error,
    error_code: it.errorCode,
    hold_reason: it.holdReason,
    runs: stats?.runs ?? 0,
    decisions: stats?.decisions ?? 0,
    cost: stats?.approvedCost ?? 0,
    files: stats?.files ?? 0,
    seconds: FINAL.has(it.state) ? runSeconds(runTimes) : null,
    thread_id: it.threadId,
    meta: it.meta,
  };
}

/** A batch's items as plain rows, in file order, filtered in SQL. */
export async function listItems(store: NotebookStore, batchId: string, f: ItemFilter = {}): Promise<ItemRow[]> {
  const states = statesFor(f);
  const items = await store.queryItems(batchId, {
    ...(states ? { states } : {}),
    ...(f.meta ? { meta: f.meta } : {}),
    ...(f.text ? { text: f.text } : {}),
    ...(f.limit !== undefined ? { limit: f.limit } : {}),
  });
  if (items.length === 0) return [];
  const [stats, times] = await Promise.all([store.itemStats(batchId), store.runTimes(batchId)]);
  const byItem = new Map<string, RunTime[]>();
  for (const t of times) {
    const list = byItem.get(t.itemId);
    if (list) list.push(t);
    else byItem.set(t.itemId, [t]);
  }
  return items.map((it) => itemRow(it, stats.get(it.id), byItem.get(it.id)));
}
