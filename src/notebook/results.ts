import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { isPostgresUrl, maskLocation, openStore } from '../store/open.js';
import type { Store } from '../store/port.js';
import type { BatchRecord, FileRecord, FileStatus } from '../store/types.js';
import { planCosts, runDurations, type PlanCost, type RunDuration } from './charts.js';
import { NotebookError } from './errors.js';
import { itemDetail, type ItemDetail } from './item-view.js';
import { listItems, type ItemFilter, type ItemRow } from './items.js';
import { modelRows, type ModelRow } from './model-rows.js';
import { batchSummary, type BatchSummary } from './summary.js';
import { decisionRows, type DecisionRow } from './status-view.js';
import { systemClock } from '../clock.js';
import { readBatchStatus, unfinishedOf } from '../read/batch-status.js';
import type { BatchStatus, ScoreRate } from '../read/status-schema.js';
import { readScoreRates } from '../read/score-rates.js';

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

  constructor(path: string, store: Store) {
    this.path = path;
    this.store = store;
  }

  /** Every batch, newest first (only one kind when given). */
  async batches(kind?: 'runs' | 'models'): Promise<BatchInfo[]> {
    const out: BatchInfo[] = [];
    for (const b of await this.store.listBatches(kind)) {
      const c = await this.store.itemCounts(b.id);
      out.push({
        name: b.name,
        kind: b.kind,
        items: b.totalItems,
        completed: c.completed,
        failed: c.failed + c.error,
        held: c.held,
        unfinished: unfinishedOf(c),
        created: b.createdAt,
        id: b.id,
      });
    }
    return out;
  }

  /** A batch by name or id; without one, the newest batch (of the kind, when given). */
  async batch(ref?: BatchRef, kind?: 'runs' | 'models'): Promise<BatchRecord> {
    // typeof narrowing only: tslab compiles cells and their imports without strictNullChecks.
    if (typeof ref === 'object' && ref !== null) return ref;
    const name = typeof ref === 'string' ? ref : null;
    const b = name === null ? await this.store.latestBatch(kind) : await this.store.findBatch(name);
    if (b && (!kind || b.kind === kind)) return b;
    const what = kind === 'models' ? 'a models batch' : kind === 'runs' ? 'an agent batch' : 'a batch';
    if (b) throw new NotebookError(`batch "${name}" is ${b.kind === 'models' ? 'a models' : 'an agent'} batch, not ${what}`);
    const names = (await this.store.listBatches()).map((x) => x.name);
    const how = kind === 'models' ? '`resq models batch MODEL FILE --db …` makes one' : '`npm run demo` makes one';
    if (name === null) throw new NotebookError(`${this.path} has no ${what.replace(/^an? /, '')} yet: ${how}`);
    throw new NotebookError(`${this.path} has no batch "${name}"; ${names.length ? `it has: ${names.join(', ')}` : `it has none yet: ${how}`}`);
  }

  // Without a name, agent-run helpers take the newest agent batch, not a newer models batch.
  #runs(ref: BatchRef | undefined): Promise<BatchRecord> {
    return ref === undefined ? this.batch(undefined, 'runs') : this.batch(ref);
  }

  /** A batch's items as plain rows, filtered: `items('demo', { failed: true })`, `{ meta: { topic: 'chemistry' } }`, `{ text: 'gallium' }`. */
  async items(ref?: BatchRef, filter: ItemFilter = {}): Promise<ItemRow[]> {
    return listItems(this.store, (await this.#runs(ref)).id, filter);
  }

  /** One item in full (show it with `renderItem`). */
  async item(ref: BatchRef | undefined, id: string): Promise<ItemDetail> {
    return itemDetail(this.store, await this.#runs(ref), id);
  }

  /** Counts, cost, files and timing of a batch (show it with `summaryTable`). */
  async summary(ref?: BatchRef): Promise<BatchSummary> {
    return batchSummary(this.store, await this.#runs(ref));
  }

  /** The batch's status as `resq status` and the page compute it (show it with `statusTable`). */
  async status(ref?: BatchRef, nowMs = systemClock.now()): Promise<BatchStatus> {
    return readBatchStatus(this.store, await this.batch(ref), { nowMs, hint: { db: this.path } });
  }

  /** Each scorer's passed, failed, unscored and pass rate with its 95% interval, as `resq status` shows them (show them with `scoresTable` and `scoresChart`). */
  async scores(ref?: BatchRef): Promise<ScoreRate[]> {
    return readScoreRates(this.store, await this.#runs(ref));
  }

  /** Every decision of a batch: who decided (the person's name), when, why, the note (show them with `decisionsTable`). */
  async decisions(ref?: BatchRef): Promise<DecisionRow[]> {
    return decisionRows(await this.store.batchDecisions((await this.#runs(ref)).id));
  }

  /** How long each run took (chart it with `durationChart`). */
  async runDurations(ref?: BatchRef): Promise<RunDuration[]> {
    return runDurations(await this.store.runTimes((await this.#runs(ref)).id));
  }

  /** Every plan the agent asked to approve and what was decided (chart it with `planCostChart`). */
  async plans(ref?: BatchRef): Promise<PlanCost[]> {
    return planCosts(await this.store.batchDecisions((await this.#runs(ref)).id));
  }

  /** A batch's files, optionally only some statuses (chart them with `mediaTypeChart`). */
  async files(ref?: BatchRef, statuses?: readonly FileStatus[]): Promise<FileRecord[]> {
    return this.store.filesForBatch((await this.#runs(ref)).id, statuses);
  }

  /** A `models` batch's rows: inputs, outputs, credits (chart them with `modelChart`). */
  async modelRows(ref?: BatchRef): Promise<ModelRow[]> {
    return modelRows(this.store, await this.batch(ref, 'models'));
  }

  /** Closes the database. */
  close(): Promise<void> {
    return this.store.close();
  }
}

/**
 * Opens a resq database read-only (a file path), or a PostgreSQL one (a `postgres://` URL). A missing file is a clear error that says how to make
 * one, never a new empty database.
 */
export async function openResults(path: string): Promise<Results> {
  if (isPostgresUrl(path)) return new Results(maskLocation(path), await openStore(path));
  const abs = resolve(path);
  if (!existsSync(abs))
    throw new NotebookError(`no resq database at ${abs}: run \`npm run demo\` first (it writes demo-out/resq.db), or give the path of your --db`);
  return new Results(abs, await openStore(abs, { readonly: true }));
}
