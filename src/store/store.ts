import type { InputProblem } from '../errors.js';
import { BatchRepo, type NewBatch } from './batches.js';
import { type Db, nowIso, openDatabase } from './database.js';
import { DecisionRepo, type NewDecision } from './decisions.js';
import { FileRepo } from './files.js';
import { type DuplicateItem, type ItemColumn, ItemRepo, type NewItem, type NewItemColumns } from './items.js';
import { type AdmittedRun, RunRepo } from './runs.js';
import { ThreadRepo } from './threads.js';
import type { BatchRecord, FileRefInput, ItemRecord } from './types.js';

/** A run as the service last reported it, reduced to what the store keeps. */
export interface RunSnapshot {
  id: string;
  status: string;
  threadId: string | null;
  createdAt: string | null;
  requiredAction: { tool: string; input: Record<string, unknown> } | null;
  output: { text?: string; tool_results?: unknown[] } | null;
  files: FileRefInput[];
}

/** What to do about a pause, decided inside the transaction that records it. */
export type PauseOutcome =
  | { kind: 'answer'; decision: NewDecision; nextKey: string }
  | { kind: 'hold'; reason: string };

/**
 * Streaming loader for a new batch: everything lands in one transaction, or nothing does.
 * A row whose id an earlier row has is refused (not stored) and handed back, with the
 * line of that earlier row, when its chunk is written: by `add` or `flush`.
 */
export interface BatchLoader {
  /** Buffers a row; returns the rows refused as duplicates if a chunk was written. */
  add(item: NewItem): DuplicateItem[];
  /**
   * Writes buffered rows, then these rows (seq `seq0` onwards) column by column; returns
   * the rows refused as duplicates.
   */
  addColumns(cols: NewItemColumns, seq0: number): DuplicateItem[];
  /** Writes every buffered row; returns the rows refused as duplicates. */
  flush(): DuplicateItem[];
  /**
   * Records the count, the rows given as invalid and, when given, the file's sha256 (known
   * only once it has been read), and commits. Returns the items stored.
   */
  commit(invalid: InputProblem[], sourceSha256?: string): number;
  rollback(): void;
}

/**
 * The SQLite store. Every method that changes state is one transaction; the runner uses
 * only these named operations (never SQL), so another backend can stand in.
 */
export class Store {
  readonly db: Db;
  readonly batches: BatchRepo;
  readonly items: ItemRepo;
  readonly runs: RunRepo;
  readonly decisions: DecisionRepo;
  readonly files: FileRepo;
  readonly threads: ThreadRepo;

  constructor(db: Db) {
    this.db = db;
    this.batches = new BatchRepo(db);
    this.items = new ItemRepo(db);
    this.runs = new RunRepo(db);
    this.decisions = new DecisionRepo(db);
    this.files = new FileRepo(db);
    this.threads = new ThreadRepo(db);
  }

  /** Opens a database file (created and migrated when needed). */
  static open(path: string, opts: { readonly?: boolean } = {}): Store {
    return new Store(openDatabase(path, opts));
  }

  /** Closes the connection. */
  close(): void {
    if (this.db.open) this.db.close();
  }

  /** Runs `fn` in one transaction. */
  tx<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  /**
   * Starts loading a batch. The batch row and every item are written in one open
   * transaction while the question file streams; commit or rollback ends it.
   */
  beginBatchLoad(batch: NewBatch, opts: { bulk?: boolean } = {}): BatchLoader {
    const restore = opts.bulk ? this.#bulkJournal() : () => {};
    try {
      this.db.exec('BEGIN IMMEDIATE');
    } catch (e) {
      restore();
      throw e;
    }
    let n = 0;
    const now = nowIso();
    try {
      this.batches.insert(batch);
    } catch (e) {
      this.db.exec('ROLLBACK');
      restore();
      throw e;
    }
    let buffer: NewItem[] = [];
    const flush = (): DuplicateItem[] => {
      const refused = buffer.length ? this.items.insertNew(batch.id, buffer, now) : [];
      n += buffer.length - refused.length;
      buffer = [];
      return refused;
    };
    return {
      add: (item) => {
        buffer.push(item);
        return buffer.length >= 256 ? flush() : [];
      },
      addColumns: (cols, seq0) => {
        const refused = flush();
        const more = this.items.insertNewColumns(batch.id, cols, seq0, now);
        n += cols.ids.length - more.length;
        return refused.concat(more);
      },
      flush,
      commit: (invalid, sourceSha256) => {
        if (flush().length) throw new Error('batch load: duplicate ids left unreported (call flush before commit)');
        this.batches.setLoaded(batch.id, n, invalid, sourceSha256);
        this.db.exec('COMMIT');
        restore();
        return n;
      },
      rollback: () => {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        restore();
      },
    };
  }

  /**
   * For a large load: a rollback journal instead of the WAL while it runs. In WAL mode
   * every new page is written twice (to the WAL, then copied into the database by the
   * checkpoint); a rollback journal saves only pages that existed before, and a load
   * mostly appends new ones (1M items: about 1 s less). The load stays one transaction: a
   * killed process leaves a hot journal that the next open rolls back. Only possible
   * while no other connection has the file open; otherwise the load goes through the WAL.
   * Returns what puts WAL mode back.
   */
  #bulkJournal(): () => void {
    if (this.db.memory || this.db.inTransaction) return () => {};
    // Another connection makes the switch fail with SQLITE_BUSY: find out at once, not
    // after the busy timeout.
    const timeout = this.db.pragma('busy_timeout', { simple: true });
    let mode = 'wal';
    try {
      this.db.pragma('busy_timeout = 0');
      mode = String(this.db.pragma('journal_mode = DELETE', { simple: true }));
    } catch (e) {
      if ((e as { code?: string }).code !== 'SQLITE_BUSY') throw e;
    } finally {
      this.db.pragma(`busy_timeout = ${Number(timeout)}`);
    }
    if (mode !== 'delete') return () => {};
    let done = false;
    return () => {
      if (done || !this.db.open) return;
      done = true;
      this.db.pragma('journal_mode = WAL');
    };
  }

  /** A batch by name or id. */
  findBatch(nameOrId: string): BatchRecord | null {
    return this.batches.find(nameOrId);
  }

  /** Moves an item to `submitting`, storing the key before the request that uses it. */
  markSubmitting(batchId: string, itemId: string, key: string, threadId: string | null): void {
    this.tx(() =>
      this.items.update(batchId, itemId, {
        state: 'submitting',
        pending_key: key,
        thread_id: threadId,
        started_at: this.items.get(batchId, itemId)?.startedAt ?? nowIso(),
      }),
    );
  }

  /** Records an admitted run (first or after a respond) and moves the item to `running`. */
  markAdmitted(item: ItemRecord, run: AdmittedRun): void {
    this.tx(() => {
      this.runs.insert(item.batchId, item.id, run);
      if (item.threadKey && run.threadId) this.threads.set(item.batchId, item.threadKey, run.threadId);
      this.items.update(item.batchId, item.id, {
        state: 'running',
        run_id: run.id,
        thread_id: run.threadId ?? item.threadId,
        run_status: run.status,
        pending_key: null,
        pending_answer: null,
        hold_reason: null,
      });
    });
  }

  #recordRun(item: ItemRecord, run: RunSnapshot): void {
    this.runs.finish(run.id, run.status, run.requiredAction, run.output);
    const seen = new Date();
    const created = run.createdAt ? new Date(run.createdAt) : null;
    for (const f of run.files) this.files.record(item.batchId, item.id, run.id, f, seen, created);
  }

  /** Records a finished run and the item's final state, in one transaction. */
  markFinished(item: ItemRecord, run: RunSnapshot, state: 'completed' | 'failed'): void {
    this.tx(() => {
      this.#recordRun(item, run);
      this.items.update(item.batchId, item.id, {
        state,
        run_status: run.status,
        text: run.output?.text ?? null,
        thread_id: run.threadId ?? item.threadId,
        error: state === 'failed' ? `run ${run.id} ended with status ${run.status}` : null,
        finished_at: nowIso(),
      });
    });
  }

  /**
   * Records a paused run and what to do about it. `decide` runs inside the transaction
   * and sees the batch's approved cost so far, so a budget is never overspent.
   */
  markPaused(item: ItemRecord, run: RunSnapshot, decide: (approvedCost: number) => PauseOutcome): PauseOutcome {
    return this.tx(() => {
      this.#recordRun(item, run);
      const outcome = decide(this.decisions.approvedCost(item.batchId));
      if (outcome.kind === 'answer') {
        this.#answer(item, outcome.decision, outcome.nextKey, { run_status: run.status, text: run.output?.text ?? null });
      } else {
        this.items.update(item.batchId, item.id, {
          state: 'held',
          run_status: run.status,
          text: run.output?.text ?? null,
          hold_reason: outcome.reason,
        });
      }
      return outcome;
    });
  }

  /** Records a decision and moves the item to `waiting` with the key of the respond that carries it. */
  #answer(item: ItemRecord, decision: NewDecision, nextKey: string, also: Partial<Record<ItemColumn, unknown>> = {}): void {
    this.decisions.insert(item.batchId, item.id, decision);
    this.items.update(item.batchId, item.id, {
      state: 'waiting',
      step: item.step + 1,
      pending_key: nextKey,
      pending_answer: decision.answer,
      hold_reason: null,
      ...also,
    });
  }

  /** A person's answer to a held item: recorded, and the item waits for the runner to send it. */
  answerHeld(item: ItemRecord, decision: NewDecision, nextKey: string): void {
    this.tx(() => {
      const now = this.items.get(item.batchId, item.id);
      if (!now || now.state !== 'held') throw new Error(`item ${item.id} is not held`);
      this.#answer(now, decision, nextKey);
    });
  }

  /**
   * Looks again at a held item under a (new) policy: `decide` runs inside the transaction
   * with the batch's approved cost; an answer moves the item to `waiting`, a hold changes nothing.
   */
  redecideHeld(item: ItemRecord, decide: (approvedCost: number) => PauseOutcome): PauseOutcome {
    return this.tx(() => {
      const now = this.items.get(item.batchId, item.id);
      if (!now || now.state !== 'held') return { kind: 'hold', reason: `item is ${now?.state ?? 'gone'}` } as const;
      const outcome = decide(this.decisions.approvedCost(item.batchId));
      if (outcome.kind === 'answer') this.#answer(now, outcome.decision, outcome.nextKey);
      return outcome;
    });
  }

  /** A permanent client-side fault (e.g. HTTP 400): the item ends in `error`. */
  markError(item: ItemRecord, message: string): void {
    this.tx(() =>
      this.items.update(item.batchId, item.id, {
        state: 'error',
        error: message,
        pending_key: null,
        finished_at: nowIso(),
      }),
    );
  }
}
