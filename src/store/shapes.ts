import type { InputProblem } from '../errors.js';
import type { BatchRecord, BatchSettings, DecisionRecord, FileRefInput, ItemState, RunError } from './types.js';

/** Shapes the store's operations take and return, beside the records of types.ts. */

/** What a new batch is made of. */
export interface NewBatch {
  id: string;
  name: string;
  kind: BatchRecord['kind'];
  sourcePath: string;
  sourceSha256: string;
  baseUrl: string | null;
  settings: BatchSettings;
  policy: unknown;
  /**
   * The id of a batch whose budget this one spends with (an agent judge's companion batch: the
   * batch it judges): every budget check of either counts what both approved. Absent: its own budget.
   */
  spendsWith?: string;
}

/** A question row as loaded into a batch. */
export interface NewItem {
  id: string;
  seq: number;
  line: number;
  question: string;
  threadKey: string | null;
  /** Every other field; a string is that object as JSON text already. */
  meta: Record<string, unknown> | string;
  /** The expected answer as JSON text (a string, a number or an object), or null/absent: none. */
  expectedJson?: string | null;
}

/** A row refused on loading because an earlier row of the batch has its id. */
export interface DuplicateItem {
  item: NewItem;
  /** Line of the row that has the id. */
  firstLine: number;
}

/** New items column by column (as a question reader hands them over); row i has seq `seq0 + i`. */
export interface NewItemColumns {
  ids: readonly string[];
  lines: readonly number[];
  questions: readonly string[];
  threads: readonly (string | null)[];
  /** Each row's meta as JSON text. */
  metas: readonly string[];
  /** Each row's expected answer as JSON text, or null: none (absent: no row has one). */
  expecteds?: readonly (string | null)[];
}

/** Filters for listing items. */
export interface ItemFilter {
  states?: readonly ItemState[];
  /** Only items whose run ended in a status other than this one (run_status set and different). */
  runStatusOtherThan?: string;
  afterSeq?: number;
  limit?: number;
}

/** What the runner knows of a run when it is admitted. */
export interface AdmittedRun {
  id: string;
  status: string;
  threadId: string | null;
  step: number;
  parentRunId: string | null;
  idempotencyKey: string;
}

/** A decision about to be recorded. */
export type NewDecision = Omit<DecisionRecord, 'id' | 'decidedAt' | 'batchId' | 'itemId' | 'person' | 'respondKey' | 'overBudget'> & { person?: string | null };

/**
 * The budget a person's answer is held to, checked in the transaction that records it (against
 * the approved cost as that transaction reads it): an approval that takes the batch past
 * `budget` is refused (OverBudgetError) unless `allowOver`, and then recorded as over.
 */
export interface BudgetGuard {
  /** The batch's `batch_budget`. */
  budget: number;
  /** The person confirmed going over it. */
  allowOver: boolean;
}

/** How a `models` batch was set up: the model and the description its rows were checked against. */
export interface ModelBatchRecord {
  batchId: string;
  modelId: string;
  /** Mode sent with each run; null lets the platform choose. */
  mode: 'sync' | 'async' | null;
  description: Record<string, unknown>;
}

/** One row of a `models` batch: the request, and what the service said about it. */
export interface ModelRunRecord {
  batchId: string;
  itemId: string;
  modelId: string;
  /** Inputs as sent (after coercion). */
  inputs: Record<string, unknown>;
  mode: 'sync' | 'async' | null;
  /** Stored before the request that carries it. */
  idempotencyKey: string | null;
  /** Times the create request was sent. */
  submits: number;
  modelRunId: string | null;
  httpStatus: number | null;
  /** The service's status (`running`, `succeeded`, `failed`, `cancelled`, …). */
  status: string | null;
  pollUrl: string | null;
  outputs: Record<string, unknown> | null;
  error: string | null;
  credits: number | null;
  polls: number;
  submittedAt: string | null;
  admittedAt: string | null;
  finishedAt: string | null;
}

/** A model run as the service last reported it. */
export interface ModelRunReport {
  id: string;
  status: string;
  outputs: Record<string, unknown> | null;
  error: string | null;
  credits: number | null;
  pollUrl: string | null;
}

/** Credits of a batch: the sum the service reported, and how many finished runs reported none. */
export interface CreditTotals {
  spent: number;
  /** Finished runs whose credits the service did not report. */
  unreported: number;
}

/** One valid input row of a `models` batch. */
export interface NewModelRow {
  id: string;
  line: number;
  /** Inputs as they will be sent (coerced to the declared types). */
  inputs: Record<string, unknown>;
  meta: Record<string, unknown>;
}

/** A finished model run as the store keeps it. */
export interface FinishedModelRun extends ModelRunReport {
  /** File references found in the outputs. */
  files: FileRefInput[];
  /** The run's creation time when the service gave one (file expiry counts from it). */
  createdAt: string | null;
}

/** Which items to read: every given condition must hold. */
export interface ItemQuery {
  /** Only these states. */
  states?: readonly ItemState[];
  /** Meta fields that must equal the given value (a list: any of them; null: absent or null). */
  meta?: Record<string, MetaValue | readonly MetaValue[]>;
  /** Case-insensitive text found in the id, question, answer, error or hold reason. */
  text?: string;
  /** At most this many items, in file order. */
  limit?: number;
}

/** A meta value to match: meta comes from CSV cells (strings) or JSONL fields. */
export type MetaValue = string | number | boolean | null;

/** Counts and sums about one item, gathered from its runs, decisions and files. */
export interface ItemStats {
  itemId: string;
  runs: number;
  decisions: number;
  /** Cost of the plans approved for this item. */
  approvedCost: number;
  files: number;
  /** Seconds its runs took, summed (finished runs only); 0 when one ended unwatched with no length known. */
  runSeconds: number;
}

/** Totals of a whole batch, each counted in SQL. */
export interface BatchTotals {
  runs: number;
  decisions: number;
  /** Cost of the plans approved (by the policy and by people). */
  approvedCost: number;
  /** Bytes of the files on disk. */
  fileBytes: number;
}

/** When one run started and ended. */
export interface RunTime {
  itemId: string;
  runId: string;
  step: number;
  status: string;
  tool: string | null;
  createdAt: string;
  finishedAt: string | null;
  /** How long it ran (the service's own times, else resq's); null while it runs or when it ended unwatched without service times. */
  seconds: number | null;
  /** It ended while no resq was watching, at or before `finishedAt`. */
  unwatched: boolean;
}

/**
 * One pause of a batch: a run that asked for an answer (its `required_action`), when it was
 * recorded, and the decision made on it (null: none yet, the item is held or was ended).
 */
export interface PauseRecord {
  itemId: string;
  runId: string;
  step: number;
  tool: string;
  input: Record<string, unknown>;
  /** When the pause was recorded (the paused run's end, ISO 8601): a held item waits from then. */
  pausedAt: string | null;
  decision: (Pick<DecisionRecord, 'answer' | 'by' | 'person' | 'reason' | 'cost' | 'decidedAt'> & { seq: number }) | null;
}

/** Which pauses {@link PauseRecord} reads return. */
export interface PauseQuery {
  /** Only the pauses decided so (`person`: the ones a person answered, the held ones). */
  decidedBy?: 'policy' | 'person';
}

/** A pause row as both adapters read it (the JSON columns as text). */
export interface PauseRow {
  itemId: string;
  runId: string;
  step: number;
  requiredAction: string;
  pausedAt: string | null;
  answer: string | null;
  by: 'policy' | 'person' | null;
  person: string | null;
  reason: string | null;
  cost: number | null;
  decidedAt: string | null;
  /** The decision's row id: the order decisions were made in (null: none). */
  decisionSeq: number | string | null;
}

/** A pause row made a {@link PauseRecord} (an action that is not an object reads as tool "unknown", input {}). */
export function pauseFromRow(r: PauseRow): PauseRecord {
  let action: { tool?: unknown; input?: unknown } = {};
  try {
    const v: unknown = JSON.parse(r.requiredAction);
    if (typeof v === 'object' && v !== null) action = v as typeof action;
  } catch {
    // an unreadable action is kept as an unknown tool's pause
  }
  const input = typeof action.input === 'object' && action.input !== null && !Array.isArray(action.input) ? (action.input as Record<string, unknown>) : {};
  return {
    itemId: r.itemId,
    runId: r.runId,
    step: Number(r.step),
    tool: typeof action.tool === 'string' ? action.tool : 'unknown',
    input,
    pausedAt: r.pausedAt,
    decision:
      r.by === null || r.answer === null || r.decidedAt === null
        ? null
        : { answer: JSON.parse(r.answer) as Record<string, unknown>, by: r.by, person: r.person, reason: r.reason, cost: Number(r.cost ?? 0), decidedAt: r.decidedAt, seq: Number(r.decisionSeq ?? 0) },
  };
}

/** One decision of a batch, with the item it belongs to. */
export type BatchDecision = Omit<DecisionRecord, 'id' | 'batchId' | 'runId'>;

/** A run as the service last reported it, reduced to what the store keeps. */
export interface RunSnapshot {
  id: string;
  status: string;
  threadId: string | null;
  createdAt: string | null;
  requiredAction: { tool: string; input: Record<string, unknown> } | null;
  output: { text?: string; tool_results?: unknown[] } | null;
  files: FileRefInput[];
  /** Why the run failed, as the service said it (kept verbatim); absent or null when it gave nothing. */
  error?: RunError | null;
  /** Seconds from its start to its end as the service's own timestamps say; null when it sent none usable. */
  serviceSeconds?: number | null;
  /** Found ended on the first look of a resq that did not start it (it ended while no resq watched). */
  unwatched?: boolean;
}

/** What to do about a pause, decided inside the transaction that records it. */
export type PauseOutcome =
  | { kind: 'answer'; decision: NewDecision; nextKey: string }
  | { kind: 'hold'; reason: string };

/** A row of a grown question set whose id the batch has, with different content. */
export interface ChangedRow {
  id: string;
  /** Its line in the file now. */
  line: number;
  /** Its line when the batch was loaded. */
  storedLine: number;
  /** The first field that differs. */
  field: 'question' | 'thread' | 'meta';
  /** The stored meta and the new one, as JSON text (to name the column when `field` is meta). */
  storedMeta: string;
  meta: string;
}

/**
 * Streaming appender of a grown question set's rows to a batch: everything lands in one
 * transaction, or nothing does (see Store.beginBatchAppend).
 */
export interface BatchAppender {
  /**
   * Takes rows in file order: a row whose id the batch has is compared with the stored one
   * (question, thread, meta; the line may move) and handed back when it differs; a new id
   * is appended, queued, after the batch's last item. Ids must be unique among the rows given.
   */
  addColumns(cols: NewItemColumns): Promise<ChangedRow[]>;
  /** Rows given so far that the batch had (`kept`) and that were appended. */
  tally(): { kept: number; appended: number };
  /** Adds the appended rows to the batch's count, records the file's sha256 and invalid rows, and commits. */
  commit(invalid: InputProblem[], sourceSha256: string): Promise<{ kept: number; appended: number }>;
  rollback(): Promise<void>;
}

/**
 * Streaming loader for a new batch: everything lands in one transaction, or nothing does.
 * A row whose id an earlier row has is refused (not stored) and handed back, with the
 * line of that earlier row, when its chunk is written: by `add` or `flush`.
 */
export interface BatchLoader {
  /** Buffers a row; returns the rows refused as duplicates if a chunk was written. */
  add(item: NewItem): Promise<DuplicateItem[]>;
  /**
   * Writes buffered rows, then these rows (seq `seq0` onwards) column by column; returns
   * the rows refused as duplicates.
   */
  addColumns(cols: NewItemColumns, seq0: number): Promise<DuplicateItem[]>;
  /** Writes every buffered row; returns the rows refused as duplicates. */
  flush(): Promise<DuplicateItem[]>;
  /**
   * Records the count, the rows given as invalid and, when given, the file's sha256 (known
   * only once it has been read), and commits. Returns the items stored.
   */
  commit(invalid: InputProblem[], sourceSha256?: string): Promise<number>;
  rollback(): Promise<void>;
}
