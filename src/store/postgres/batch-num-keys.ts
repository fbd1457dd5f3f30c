import { pgBatchSpend, pgItemCountsByNum, pgOutboxByNum } from '../outbox-schema.js';

/**
 * PostgreSQL's 020_batch_num_keys (issue 32): the batch's integer key (`batches.num`, 019)
 * replaces the 36-character batch id in every table but `batches`, whose `id` stays the public
 * id. Each table gains `batch_num`, filled from its batch; its keys, foreign keys and indexes are
 * rebuilt on it (each index named for its reader); `batch_id` is dropped; the trigger functions
 * that read it (the counts of 012, the outbox of 017/019) are replaced; and the approved cost
 * is kept running in `batch_spend` (one row a batch) instead of summed at every pause. One
 * transaction (migrations.ts): every table is locked first, in one order, so a worker of the
 * old code still running waits, then fails on the new schema, never sees half of it.
 */

/** The tables that carry `batch_id` before 020, children after their parents (the order their columns are dropped in is the reverse). */
const CARRIERS = ['items', 'threads', 'runs', 'decisions', 'files', 'file_copies', 'model_batches', 'model_runs', 'workers', 'item_counts', 'outbox'] as const;

const fill = (t: string): string =>
  t === 'items'
    ? '' // items has its batch_num since 019
    : `ALTER TABLE ${t} ADD COLUMN batch_num BIGINT;
       UPDATE ${t} x SET batch_num = b.num FROM batches b WHERE b.id = x.batch_id;`;

export const PG_BATCH_NUM_KEYS = `
  LOCK TABLE batches, flights, ${CARRIERS.join(', ')} IN ACCESS EXCLUSIVE MODE;
  ${CARRIERS.map(fill).join('\n  ')}
  -- Counts of a batch deleted by hand (item_counts has no foreign key, see 012): nothing reads them.
  DELETE FROM item_counts WHERE batch_num IS NULL;
  ${CARRIERS.filter((t) => t !== 'items').map((t) => `ALTER TABLE ${t} ALTER COLUMN batch_num SET NOT NULL;`).join('\n  ')}

  -- The view of 016 reads decisions.batch_id: made again below, by batch_num.
  DROP VIEW decision_log;
  -- Each batch_id dropped with the keys, foreign keys and indexes on it, children first (a
  -- child's foreign key goes with its own column, so no parent's key is still referenced).
  ${[...CARRIERS].reverse().map((t) => `ALTER TABLE ${t} DROP COLUMN batch_id;`).join('\n  ')}

  -- The keys. An item by its id (flights.ts getItem, claims.ts release / requeue, batch-append.ts
  -- the duplicates), and the key its children reference.
  ALTER TABLE items ADD CONSTRAINT items_by_id PRIMARY KEY (batch_num, id);
  ALTER TABLE items ADD FOREIGN KEY (batch_num) REFERENCES batches(num) ON DELETE CASCADE;
  -- claims.ts threadOf (a thread's id), transitions.ts markAdmitted (the upsert).
  ALTER TABLE threads ADD CONSTRAINT threads_by_key PRIMARY KEY (batch_num, thread_key);
  ALTER TABLE threads ADD FOREIGN KEY (batch_num) REFERENCES batches(num) ON DELETE CASCADE;
  ALTER TABLE runs ADD FOREIGN KEY (batch_num, item_id) REFERENCES items(batch_num, id) ON DELETE CASCADE;
  -- reads.ts runChain / aggregates (an item's runs in order); summaries.ts, item-pages.ts (a batch's runs).
  CREATE INDEX runs_for_item ON runs(batch_num, item_id, ord);
  ALTER TABLE decisions ADD FOREIGN KEY (batch_num, item_id) REFERENCES items(batch_num, id) ON DELETE CASCADE;
  -- reads.ts decisionsForItem / aggregates (an item's decisions); summaries.ts (a batch's).
  CREATE INDEX decisions_for_item ON decisions(batch_num, item_id);
  -- transitions.ts decisionForRun and answer's ON CONFLICT: one decision per paused run.
  CREATE UNIQUE INDEX decisions_for_run ON decisions(batch_num, run_id);
  -- files.ts getFile, postgres-store.ts markFileDownloaded / markFileStatus, transitions.ts recordFile's ON CONFLICT.
  ALTER TABLE files ADD CONSTRAINT files_by_id PRIMARY KEY (batch_num, id);
  ALTER TABLE files ADD FOREIGN KEY (batch_num, item_id) REFERENCES items(batch_num, id) ON DELETE CASCADE;
  -- files.ts filesForBatch by status, fileCounts, expiryReport (a batch's files by status).
  CREATE INDEX files_for_status ON files(batch_num, status);
  -- files.ts filesForItem / reads.ts aggregates (an item's files in order).
  CREATE INDEX files_of_item ON files(batch_num, item_id, ord);
  -- postgres-store.ts recordFileCopy's ON CONFLICT; files.ts fileCopies (a batch's copies).
  ALTER TABLE file_copies ADD CONSTRAINT file_copies_by_file PRIMARY KEY (batch_num, file_id, host);
  ALTER TABLE file_copies ADD FOREIGN KEY (batch_num, file_id) REFERENCES files(batch_num, id) ON DELETE CASCADE;
  -- models.ts modelBatch, postgres-store.ts setModelMode.
  ALTER TABLE model_batches ADD CONSTRAINT model_batches_by_batch PRIMARY KEY (batch_num);
  ALTER TABLE model_batches ADD FOREIGN KEY (batch_num) REFERENCES batches(num) ON DELETE CASCADE;
  -- models.ts modelRun / modelRuns, transitions.ts the model run's updates.
  ALTER TABLE model_runs ADD CONSTRAINT model_runs_by_item PRIMARY KEY (batch_num, item_id);
  ALTER TABLE model_runs ADD FOREIGN KEY (batch_num, item_id) REFERENCES items(batch_num, id) ON DELETE CASCADE;
  ALTER TABLE workers ADD FOREIGN KEY (batch_num) REFERENCES batches(num) ON DELETE CASCADE;
  -- claims.ts live (a batch's live workers by heartbeat).
  CREATE INDEX workers_for_live ON workers(batch_num, heartbeat_at);
  -- counts.ts itemCounts (a batch's kept counts) and the counts' triggers' upserts. No foreign
  -- key, as in 012: the batch's delete writes the counts of its items as they go.
  ALTER TABLE item_counts ADD CONSTRAINT item_counts_by_state PRIMARY KEY (batch_num, state, slot);
  ALTER TABLE outbox ADD FOREIGN KEY (batch_num) REFERENCES batches(num) ON DELETE CASCADE;
  -- outbox.ts addEvent and the outbox triggers' ON CONFLICT: one event a key.
  CREATE UNIQUE INDEX outbox_for_key ON outbox(batch_num, key);
  -- outbox.ts collateHeld (facts, digests, reminders), state (pending, last error); the
  -- trigger's count of batch.finished events.
  CREATE INDEX outbox_for_kind ON outbox(batch_num, type, status, created_at);
  -- reads.ts recentFinishes (ORDER BY finished_at DESC, seq DESC): the latest ends read in the
  -- index's order, not a sort of every item that ended at one time (800,000 in the serve bench);
  -- item-pages.ts batchLive's span (min and max finished_at).
  DROP INDEX items_for_rate;
  CREATE INDEX items_for_rate ON items(batch_num, finished_at, seq) WHERE finished_at IS NOT NULL;

  CREATE VIEW decision_log AS
    SELECT b.name AS batch, d.item_id, d.tool, d.answer, d.by, d.person,
           CASE WHEN d.by = 'person' THEN d.reason ELSE (d.answer::jsonb ->> 'note') END AS note,
           d.cost, CASE WHEN d.by = 'policy' THEN d.reason END AS reason, d.decided_at
    FROM decisions d JOIN batches b ON b.num = d.batch_num;

  ${pgItemCountsByNum()}
  ${pgOutboxByNum()}
  ${pgBatchSpend()}
`;
