// PostgreSQL's 020_batch_num_keys (issue 32), as shipped: text only, byte for byte (trailing
// spaces included), never built from live code. test/store/migration-text.test.ts pins its hash.
//
// The batch's integer key (`batches.num`, 019) replaces the 36-character batch id in every table
// but `batches`, whose `id` stays the public id. Each table gains `batch_num`, filled from its
// batch; its keys, foreign keys and indexes are rebuilt on it (each index named for its reader);
// `batch_id` is dropped; the trigger functions that read it (the counts of 012, the outbox of
// 017/019) are replaced; and the approved cost is kept running in `batch_spend` (one row a
// batch) instead of summed at every pause. One transaction (migrations.ts): every table is
// locked first, in one order, so a worker of the old code still running waits, then fails on
// the new schema, never sees half of it.
//
// batch_spend: filled from the decisions there are and kept by triggers on `decisions` (a
// decision added adds its cost; one deleted, other than with its batch, takes it off). The
// insert's trigger locks the batch's row before the spend's (FOR NO KEY UPDATE, as markPaused
// does before it reads the total): every writer of a batch's spend takes the two in that one
// order, so a person's answer and a worker's pause never wait on each other crosswise. Named
// `decisions_spend`, it runs before `outbox_budget` (triggers of one event run in name order),
// which reads the total.

/** The whole of 020, one script. */
export const BATCH_NUM_KEYS_020 = `
  LOCK TABLE batches, flights, items, threads, runs, decisions, files, file_copies, model_batches, model_runs, workers, item_counts, outbox IN ACCESS EXCLUSIVE MODE;
  
  ALTER TABLE threads ADD COLUMN batch_num BIGINT;
       UPDATE threads x SET batch_num = b.num FROM batches b WHERE b.id = x.batch_id;
  ALTER TABLE runs ADD COLUMN batch_num BIGINT;
       UPDATE runs x SET batch_num = b.num FROM batches b WHERE b.id = x.batch_id;
  ALTER TABLE decisions ADD COLUMN batch_num BIGINT;
       UPDATE decisions x SET batch_num = b.num FROM batches b WHERE b.id = x.batch_id;
  ALTER TABLE files ADD COLUMN batch_num BIGINT;
       UPDATE files x SET batch_num = b.num FROM batches b WHERE b.id = x.batch_id;
  ALTER TABLE file_copies ADD COLUMN batch_num BIGINT;
       UPDATE file_copies x SET batch_num = b.num FROM batches b WHERE b.id = x.batch_id;
  ALTER TABLE model_batches ADD COLUMN batch_num BIGINT;
       UPDATE model_batches x SET batch_num = b.num FROM batches b WHERE b.id = x.batch_id;
  ALTER TABLE model_runs ADD COLUMN batch_num BIGINT;
       UPDATE model_runs x SET batch_num = b.num FROM batches b WHERE b.id = x.batch_id;
  ALTER TABLE workers ADD COLUMN batch_num BIGINT;
       UPDATE workers x SET batch_num = b.num FROM batches b WHERE b.id = x.batch_id;
  ALTER TABLE item_counts ADD COLUMN batch_num BIGINT;
       UPDATE item_counts x SET batch_num = b.num FROM batches b WHERE b.id = x.batch_id;
  ALTER TABLE outbox ADD COLUMN batch_num BIGINT;
       UPDATE outbox x SET batch_num = b.num FROM batches b WHERE b.id = x.batch_id;
  -- Counts of a batch deleted by hand (item_counts has no foreign key, see 012): nothing reads them.
  DELETE FROM item_counts WHERE batch_num IS NULL;
  ALTER TABLE threads ALTER COLUMN batch_num SET NOT NULL;
  ALTER TABLE runs ALTER COLUMN batch_num SET NOT NULL;
  ALTER TABLE decisions ALTER COLUMN batch_num SET NOT NULL;
  ALTER TABLE files ALTER COLUMN batch_num SET NOT NULL;
  ALTER TABLE file_copies ALTER COLUMN batch_num SET NOT NULL;
  ALTER TABLE model_batches ALTER COLUMN batch_num SET NOT NULL;
  ALTER TABLE model_runs ALTER COLUMN batch_num SET NOT NULL;
  ALTER TABLE workers ALTER COLUMN batch_num SET NOT NULL;
  ALTER TABLE item_counts ALTER COLUMN batch_num SET NOT NULL;
  ALTER TABLE outbox ALTER COLUMN batch_num SET NOT NULL;

  -- The view of 016 reads decisions.batch_id: made again below, by batch_num.
  DROP VIEW decision_log;
  -- Each batch_id dropped with the keys, foreign keys and indexes on it, children first (a
  -- child's foreign key goes with its own column, so no parent's key is still referenced).
  ALTER TABLE outbox DROP COLUMN batch_id;
  ALTER TABLE item_counts DROP COLUMN batch_id;
  ALTER TABLE workers DROP COLUMN batch_id;
  ALTER TABLE model_runs DROP COLUMN batch_id;
  ALTER TABLE model_batches DROP COLUMN batch_id;
  ALTER TABLE file_copies DROP COLUMN batch_id;
  ALTER TABLE files DROP COLUMN batch_id;
  ALTER TABLE decisions DROP COLUMN batch_id;
  ALTER TABLE runs DROP COLUMN batch_id;
  ALTER TABLE threads DROP COLUMN batch_id;
  ALTER TABLE items DROP COLUMN batch_id;

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

  
  CREATE OR REPLACE FUNCTION item_counts_added() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
        INSERT INTO item_counts (batch_num, state, slot, n)
          SELECT batch_num, state, pg_backend_pid(), count(*) FROM added GROUP BY batch_num, state
          ON CONFLICT (batch_num, state, slot) DO UPDATE SET n = item_counts.n + excluded.n;
    RETURN NULL;
  END $$;
  CREATE OR REPLACE FUNCTION item_counts_removed() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
        INSERT INTO item_counts (batch_num, state, slot, n)
          SELECT batch_num, state, pg_backend_pid(), -count(*) FROM removed GROUP BY batch_num, state
          ON CONFLICT (batch_num, state, slot) DO UPDATE SET n = item_counts.n + excluded.n;
    RETURN NULL;
  END $$;
  CREATE OR REPLACE FUNCTION item_counts_moved() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO item_counts (batch_num, state, slot, n)
      SELECT batch_num, state, pg_backend_pid(), sum(d) FROM (
        SELECT batch_num, state, -1 AS d FROM before_rows UNION ALL SELECT batch_num, state, 1 FROM after_rows) t
      GROUP BY batch_num, state HAVING sum(d) <> 0
      ON CONFLICT (batch_num, state, slot) DO UPDATE SET n = item_counts.n + excluded.n;
    RETURN NULL;
  END $$;
  
  CREATE OR REPLACE FUNCTION outbox_item_moved() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE n integer;
  BEGIN
    IF NOT EXISTS (SELECT 1 FROM batches WHERE num = NEW.batch_num AND settings::jsonb ? 'notify') THEN RETURN NULL; END IF;
    IF NEW.state = 'held' THEN
      INSERT INTO outbox (batch_num, key, type, status, item_id, run_id, reason, created_at)
      VALUES (NEW.batch_num, 'held:' || NEW.id || ':' || coalesce(NEW.run_id, ''), 'item.held', 'fact', NEW.id, NEW.run_id, NEW.hold_reason, (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
      ON CONFLICT (batch_num, key) DO NOTHING;
    ELSIF NEW.state IN ('completed', 'failed', 'error', 'cancelled') AND OLD.state NOT IN ('completed', 'failed', 'error', 'cancelled') THEN
      PERFORM 1 FROM batches WHERE num = NEW.batch_num FOR NO KEY UPDATE;
      IF NOT EXISTS (SELECT 1 FROM items WHERE batch_num = NEW.batch_num AND state = 'queued')
         AND NOT EXISTS (SELECT 1 FROM items WHERE batch_num = NEW.batch_num AND state <> 'queued' AND state IN ('queued', 'submitting', 'running', 'waiting', 'held', 'flight')) THEN
        SELECT count(*) INTO n FROM outbox WHERE batch_num = NEW.batch_num AND type = 'batch.finished';
        INSERT INTO outbox (batch_num, key, type, status, created_at)
        VALUES (NEW.batch_num, 'finished:' || n, 'batch.finished', 'pending', (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
        ON CONFLICT (batch_num, key) DO NOTHING;
      END IF;
    END IF;
    RETURN NULL;
  END $$;
  CREATE OR REPLACE FUNCTION outbox_budget() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE budget numeric; total numeric; pct integer;
  BEGIN
    SELECT (policy::jsonb #>> '{confirm_scope,batch_budget}')::numeric INTO budget FROM batches
      WHERE num = NEW.batch_num AND settings::jsonb ? 'notify' FOR NO KEY UPDATE;
    IF budget IS NULL OR budget <= 0 THEN RETURN NULL; END IF;
    SELECT coalesce((SELECT approved FROM batch_spend WHERE batch_num = NEW.batch_num), 0) INTO total;
    FOREACH pct IN ARRAY ARRAY[80, 100] LOOP
      IF total >= budget * pct / 100.0 THEN
        INSERT INTO outbox (batch_num, key, type, status, data, created_at)
        VALUES (NEW.batch_num, 'budget:' || pct, 'budget.reached', 'pending',
                json_build_object('share', pct, 'budget', budget, 'approved', total)::text, (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
        ON CONFLICT (batch_num, key) DO NOTHING;
      END IF;
    END LOOP;
    RETURN NULL;
  END $$;
  
  CREATE TABLE batch_spend (
    batch_num BIGINT PRIMARY KEY REFERENCES batches(num) ON DELETE CASCADE,
    approved DOUBLE PRECISION NOT NULL DEFAULT 0);
  INSERT INTO batch_spend (batch_num, approved) SELECT batch_num, sum(cost) FROM decisions GROUP BY batch_num;
  CREATE FUNCTION batch_spend_added() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM 1 FROM batches WHERE num = NEW.batch_num FOR NO KEY UPDATE;
    INSERT INTO batch_spend (batch_num, approved) VALUES (NEW.batch_num, coalesce(NEW.cost, 0))
      ON CONFLICT (batch_num) DO UPDATE SET approved = batch_spend.approved + excluded.approved;
    RETURN NULL;
  END $$;
  CREATE TRIGGER decisions_spend AFTER INSERT ON decisions FOR EACH ROW WHEN (NEW.cost <> 0) EXECUTE FUNCTION batch_spend_added();
  CREATE FUNCTION batch_spend_removed() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    UPDATE batch_spend s SET approved = s.approved - r.cost
      FROM (SELECT batch_num, sum(cost) AS cost FROM removed GROUP BY batch_num) r WHERE s.batch_num = r.batch_num;
    RETURN NULL;
  END $$;
  CREATE TRIGGER decisions_unspend AFTER DELETE ON decisions REFERENCING OLD TABLE AS removed
    FOR EACH STATEMENT EXECUTE FUNCTION batch_spend_removed();
`;
