import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { NotebookQueries } from '../store/notebook-queries.js';
import { Store } from '../store/store.js';
import type { BatchRecord, FileRecord, FileStatus } from '../store/types.js';
import { planCosts, runDurations, type PlanCost, type RunDuration } from './charts.js';
import { NotebookError } from './errors.js';
import { itemDetail, type ItemDetail } from './item-view.js';
import { listItems, type ItemFilter, type ItemRow } from './items.js';
import { modelRows, type ModelRow } from './model-rows.js';
import { batchSummary, type BatchSummary } from './summary.js';

/** A batch, or its name or id. */
export type BatchRef = string | BatchRecord;

/** One line of the batch list. */
export interface BatchInfo {
  name: string;
  kind: 'runs' | 'models';
  items: number;
  completed: number;
  failed: number;
  held: number;
  unfinished: number;
  created: string;
  id: string;
}

/**
 * A resq database opened read-only for exploring: its batches, items, runs, decisions,
 * files and model runs as plain objects. Nothing here writes, so a notebook can read a
 * database while a batch is still running into it.
 */
export class Results {
  readonly path: string;
  readonly store: Store;
  readonly #q: NotebookQueries;

  constructor(path: string, store: Store) {
    this.path = path;
    this.store = store;
    this.#q = new NotebookQueries(store.db);
  }

  /** Every batch, newest first (only one kind when given). */
  batches(kind?: 'runs' | 'models'): BatchInfo[] {
    return this.store.batches.list(kind).map((b) => {
      const c = this.store.items.counts(b.id);
      return {
        name: b.name,
        kind: b.kind,
        items: b.totalItems,
        completed: c.completed,
        failed: c.failed + c.error,
        held: c.held,
        unfinished: c.queued + c.submitting + c.running + c.waiting,
        created: b.createdAt,
        id: b.id,
      };
    });
  }

  /** A batch by name or id; without one, the newest batch (of the kind, when given). */
  batch(ref?: BatchRef, kind?: 'runs' | 'models'): BatchRecord {
    // typeof narrowing only: tslab compiles cells and their imports without strictNullChecks.
    if (typeof ref === 'object' && ref !== null) return ref;
    const name = typeof ref === 'string' ? ref : null;
    const b = name === null ? this.store.batches.latest(kind) : this.store.findBatch(name);
    if (b && (!kind || b.kind === kind)) return b;
    const what = kind === 'models' ? 'a models batch' : kind === 'runs' ? 'an agent batch' : 'a batch';
    if (b) throw new NotebookError(`batch "${name}" is ${b.kind === 'models' ? 'a models' : 'an agent'} batch, not ${what}`);
    const names = this.store.batches.list().map((x) => x.name);
    const how = kind === 'models' ? '`npx resq models batch MODEL FILE --db …` makes one' : '`npm run demo` makes one';
    if (name === null) throw new NotebookError(`${this.path} has no ${what.replace(/^an? /, '')} yet: ${how}`);
    throw new NotebookError(`${this.path} has no batch "${name}"; ${names.length ? `it has: ${names.join(', ')}` : `it has none yet: ${how}`}`);
  }

  // Without a name, agent-run helpers take the newest agent batch, not a newer models batch.
  #runs(ref: BatchRef | undefined): BatchRecord {
    return ref === undefined ? this.batch(undefined, 'runs') : this.batch(ref);
  }

  /** A batch's items as plain rows, filtered: `items('demo', { failed: true })`, `{ meta: { topic: 'chemistry' } }`, `{ text: 'gallium' }`. */
  items(ref?: BatchRef, filter: ItemFilter = {}): ItemRow[] {
    return listItems(this.#q, this.#runs(ref).id, filter);
  }

  /** One item in full (show it with `renderItem`). */
  item(ref: BatchRef | undefined, id: string): ItemDetail {
    return itemDetail(this.store, this.#runs(ref), id);
  }

  /** Counts, cost, files and timing of a batch (show it with `summaryTable`). */
  summary(ref?: BatchRef): BatchSummary {
    return batchSummary(this.store, this.#q, this.#runs(ref));
  }

  /** How long each run took (chart it with `durationChart`). */
  runDurations(ref?: BatchRef): RunDuration[] {
    return runDurations(this.#q.runTimes(this.#runs(ref).id));
  }

  /** Every plan the agent asked to approve and what was decided (chart it with `planCostChart`). */
  plans(ref?: BatchRef): PlanCost[] {
    return planCosts(this.#q.decisions(this.#runs(ref).id));
  }

  /** A batch's files, optionally only some statuses (chart them with `mediaTypeChart`). */
  files(ref?: BatchRef, statuses?: readonly FileStatus[]): FileRecord[] {
    return this.store.files.forBatch(this.#runs(ref).id, statuses);
  }

  /** A `models` batch's rows: inputs, outputs, credits (chart them with `modelChart`). */
  modelRows(ref?: BatchRef): ModelRow[] {
    if (!this.#q.hasTable('model_runs')) throw new NotebookError(`${this.path} predates model batches: it has none`);
    return modelRows(this.store, this.batch(ref, 'models'));
  }

  /** Closes the database. */
  close(): void {
    this.store.close();
  }
}

/**
 * Opens a resq database read-only. A missing file is a clear error that says how to make
 * one, never a new empty database.
 */
export function openResults(path: string): Results {
  const abs = resolve(path);
  if (!existsSync(abs))
    throw new NotebookError(`no resq database at ${abs}: run \`npm run demo\` first (it writes demo-out/resq.db), or give the path of your --db`);
  return new Results(abs, Store.open(abs, { readonly: true }));
}
