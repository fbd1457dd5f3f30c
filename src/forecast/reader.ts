import { resolve } from 'node:path';
import { InputError } from '../errors.js';
import { planCost } from '../policy/cost.js';
import { isoNow } from '../clock.js';
import type { ForecastStore } from '../store/roles/forecasts.js';
import { type Hindsight, pausesToPeople, readHindsight } from './hindsight.js';
import type { Policy } from '../policy/index.js';
import { budgetOf } from '../read/spend.js';
import type { NotebookStore } from '../store/roles/notebook.js';
import type { ReadStore } from '../store/port.js';
import type { BatchRecord } from '../store/types.js';
import { validateQuestionSet } from '../tables/question-set.js';
import { type Forecast, forecast } from './estimate.js';
import { batchSample } from './sample.js';

/** What to forecast. */
export interface ForecastRequest {
  /** The question set (CSV, TSV or JSONL), read as `run` reads it. */
  file: string;
  /** The reference batch: a finished batch, or one that ran the first `--limit N` of this same file. */
  from: BatchRecord;
  /** More batches to learn from (their questions that ran join the sample); the file is matched against `from` only. */
  also?: BatchRecord[];
  /** Forecast only the next N questions. */
  limit?: number;
  /** Every row of the file, even when the reference batch was loaded from it and has some still queued. */
  all?: boolean;
  /** The policy the questions will run under; undefined: the reference batch's own. */
  policy?: Policy | null;
  /** The budget; undefined: the policy's confirm_scope.batch_budget. */
  budget?: number;
  /** Most runs in flight; undefined: the reference batch's concurrency. */
  cap?: number;
  /** When the forecast is made (ISO 8601), as kept; default now. */
  madeAt?: string;
}

/** A forecast and what it was made from. */
export interface ForecastReport extends Forecast {
  file: string;
  from: string;
  /** The reference batch ran the first N of this same file: the forecast is for its questions not yet run (else for every row). */
  rest: boolean;
  /**
   * How FILE was matched to the reference batch's own file: `name` (the same path and content),
   * `content` (another path with the very same content, e.g. a renamed copy), or `none`.
   */
  match: 'name' | 'content' | 'none';
  /** The reference batch's own file (its path when loaded). */
  batchFile: string;
  /** The batches the figures were learned from, with how many of their questions ran. */
  learnedFrom: { name: string; questions: number }[];
  /** What the reference batch holds now: what it spent (approved) and its pauses held for a person with their plans' costs. */
  now: { spent: number; heldPauses: number; heldCost: number };
  /** What the batch already spent, counted in `batchCost` and the budget: `now.spent` when the forecast is for its rest, else 0. */
  spent: number;
  /** The last forecast of the reference batch and, once it ended, how far off it was; null when none was kept. */
  lastForecast: Hindsight | null;
  /** Valid rows of the file. */
  fileRows: number;
  policy: 'given' | 'reference';
  cap: number;
}

/**
 * Forecasts a question set from a reference batch: its pauses replayed under the policy
 * (see checkPolicy) give, for each of its items that ran, the cost the policy would approve
 * (with what people approved on the pauses it would hold) and the pauses it would hold; wall time from the seconds its runs took (not the time they waited for a
 * person). When the reference batch was loaded from this same file and ran part of it (`run FILE
 * --limit N`), the forecast is for its questions still queued (the rest, starting from what the
 * batch already spent), unless `all`; else for every row. A file of the same content under
 * another path is matched by content, and says so (`match`). The forecast is kept in the store,
 * and the last one kept of the reference batch is said with how far off it was once it ended.
 * @throws {InputError} a bad question set (file:line: reason), or a reference with nothing that ran.
 */
export async function readForecast(
  store: Pick<ReadStore, 'batchPauses' | 'itemCounts' | 'approvedCost'> & Pick<NotebookStore, 'queryItems' | 'itemStats'> & ForecastStore,
  r: ForecastRequest,
): Promise<ForecastReport> {
  const set = await validateQuestionSet(r.file, { maxProblems: 5 });
  if (set.invalid > 0) throw new InputError(set.problems);
  // The reference ran the first N of this same file: the rest (its items still queued); all of it ran, or --all: a rerun.
  const match = set.sha256 !== r.from.sourceSha256 ? 'none' : resolve(r.file) === resolve(r.from.sourcePath) ? 'name' : 'content';
  const queued = match !== 'none' && !r.all ? (await store.itemCounts(r.from.id)).queued : 0;
  const rest = queued > 0;
  let questions = rest ? queued : set.rows;
  if (r.limit !== undefined) questions = Math.min(questions, r.limit);

  const policy = r.policy === undefined ? ((r.from.policy as Policy | null) ?? null) : r.policy;
  // Every batch learned from, each replayed under the one policy the questions will run under.
  const learned = [...new Map([r.from, ...(r.also ?? [])].map((b) => [b.id, b])).values()];
  const samples = await Promise.all(learned.map((b) => batchSample(store, b, policy)));
  const empty = learned.filter((_, i) => samples[i]!.costs.length === 0).map((b) => `"${b.name}"`);
  if (empty.length > 0) throw new InputError(`batch ${empty.join(', ')} has no item that ran: nothing to forecast from`);
  const [costs, holds, seconds] = (['costs', 'holds', 'seconds'] as const).map((k) => samples.flatMap((x) => x[k]));
  const open = samples[0]!.pauses.filter((p) => p.decision === null);
  const now = { spent: await store.approvedCost(r.from.id), heldPauses: open.length, heldCost: open.reduce((s, p) => s + (planCost(p.input) ?? 0), 0) };
  const spent = rest ? now.spent : 0;
  const cap = r.cap ?? r.from.settings.concurrency;
  const budget = r.budget ?? budgetOf(policy);
  const f = forecast({ questions, costs: costs!, holds: holds!, seconds: seconds!, cap, budget, spent });
  // Read before this forecast is kept: a forecast of the batch's rest would be its last.
  const lastForecast = await readHindsight(store, r.from);
  const heldSoFar = rest ? await pausesToPeople(store, r.from.id) : 0;
  await store.keepForecast({
    madeAt: r.madeAt ?? isoNow(),
    filePath: resolve(r.file),
    fileSha256: set.sha256,
    forBatchId: rest ? r.from.id : null,
    learnedFrom: learned.map((b) => b.name),
    questions,
    cost: f.batchCost,
    held: f.held && { estimate: heldSoFar + f.held.estimate, low: heldSoFar + f.held.low, high: heldSoFar + f.held.high },
  });
  return {
    ...f,
    lastForecast,
    file: r.file,
    from: r.from.name,
    rest,
    match,
    batchFile: r.from.sourcePath,
    learnedFrom: learned.map((b, i) => ({ name: b.name, questions: samples[i]!.costs.length })),
    now,
    spent,
    fileRows: set.rows,
    policy: r.policy === undefined ? 'reference' : 'given',
    cap,
  };
}
