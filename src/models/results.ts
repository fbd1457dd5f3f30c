import { createWriteStream } from 'node:fs';
import { rename } from 'node:fs/promises';
import { once } from 'node:events';
import type { BatchRecord, CreditTotals, FileStatus, FileStore, ItemRecord, ModelStore, ReadStore } from '../store/index.js';
import type { RowCounts } from './events.js';
import { exportFile } from '../read/export-rows.js';

/** One line of `--output`: exactly the fields of DESIGN.md's model result row. */
export interface ModelResultRow {
  id: string;
  /**
   * The service's status once the run finished (`succeeded`, `failed`, `cancelled`, …);
   * else `queued`, `running`, `unknown` (sent, outcome unknown) or `error` (refused, e.g. HTTP 400).
   */
  status: string;
  outputs: Record<string, unknown> | null;
  error: string | null;
  credits: number | null;
  model_run_id: string | null;
  files: { id: string; role: string | null; name: string | null; path: string | null; bytes: number | null; sha256: string | null; status: FileStatus }[];
}

function rowStatus(item: ItemRecord, serviceStatus: string | null): string {
  switch (item.state) {
    case 'completed':
    case 'failed':
      return serviceStatus ?? item.state;
    case 'submitting':
      return 'unknown';
    case 'waiting':
    case 'held':
      return 'running';
    default:
      return item.state;
  }
}

/** A batch's result rows in file order, streamed from the database a page at a time. */
export async function* modelResultRows(store: ReadStore & ModelStore, batch: BatchRecord, pageSize = 500): AsyncGenerator<ModelResultRow> {
  for (let after = -1; ; ) {
    const [runs, aggs] = await Promise.all([store.modelRuns(batch.id, after, pageSize), store.aggregates(batch.id, after, pageSize)]);
    if (aggs.length === 0) return;
    const byId = new Map(runs.map((r) => [r.item.id, r.run]));
    for (const a of aggs) {
      const item = a.item;
      after = item.seq;
      const mr = byId.get(item.id) ?? null;
      yield {
        id: item.id,
        status: rowStatus(item, mr?.status ?? null),
        outputs: mr?.outputs ?? null,
        // The service's reason verbatim; our own only for rows the service never ran.
        error: mr?.error ?? (item.state === 'error' ? item.error : null),
        credits: mr?.credits ?? null,
        model_run_id: mr?.modelRunId ?? null,
        files: a.files.map(exportFile),
      };
    }
  }
}

/**
 * Writes every result row as JSON lines to `path`, through a temporary name and a rename,
 * so a reader never sees half a file. Returns the number of rows.
 */
export async function writeModelResults(store: ReadStore & ModelStore, batch: BatchRecord, path: string): Promise<number> {
  const tmp = `${path}.partial`;
  const out = createWriteStream(tmp);
  let n = 0;
  try {
    for await (const row of modelResultRows(store, batch)) {
      n++;
      if (!out.write(`${JSON.stringify(row)}\n`)) await once(out, 'drain');
    }
  } finally {
    out.end();
    await once(out, 'close');
  }
  await rename(tmp, path);
  return n;
}

/** A `models` batch's state for `resq models status` and notebooks. */
export interface ModelBatchStatus {
  batch: string;
  batchId: string;
  model: string;
  mode: 'sync' | 'async' | null;
  total: number;
  counts: RowCounts;
  /** Credits the service reported for finished runs, and how many finished runs reported none. */
  credits: CreditTotals;
  /** Rows whose create request may or may not have started a run. */
  unknownSubmission: string[];
  /** Reads of running jobs so far. */
  polls: number;
  files: Record<FileStatus, number>;
  /** A few failed or refused rows with their reason. */
  failures: { id: string; error: string | null }[];
}

/** Summarises a `models` batch from the store; null when the batch is of another kind. */
export async function modelBatchStatus(store: ReadStore & ModelStore & FileStore, batch: BatchRecord): Promise<ModelBatchStatus | null> {
  const mb = await store.modelBatch(batch.id);
  if (!mb) return null;
  return {
    batch: batch.name,
    batchId: batch.id,
    model: mb.modelId,
    mode: mb.mode,
    total: batch.totalItems,
    counts: await store.itemCounts(batch.id),
    credits: await store.modelCredits(batch.id),
    unknownSubmission: (await store.listItems(batch.id, { states: ['submitting'] })).map((i) => i.id),
    polls: await store.modelPolls(batch.id),
    files: await store.fileCounts(batch.id),
    failures: (await store.listItems(batch.id, { states: ['failed', 'error'], limit: 20 })).map((i) => ({ id: i.id, error: i.error })),
  };
}
