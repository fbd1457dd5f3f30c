// SQLite's outbox in 020_batch_num_keys (issue 32), as shipped: text only, byte for byte
// (trailing spaces included), never built from live code. test/store/migration-text.test.ts
// pins the hash of 020, which runs these.
//
// The batch named by its integer `batch_num`: the table's body (made as `outbox_020`, then
// renamed), its indexes and its triggers, the same facts as 017's. The budget's events are
// written when the batch's approved cost (`batch_spend`, kept by the triggers on decisions)
// grows: the total is that row, not a sum of the decisions. Run from batch_spend's upsert,
// where SQLite takes the outer statement's conflict handling over the trigger's OR IGNORE: a
// share told already is left out by the NOT EXISTS, not by a conflict.

/** The outbox table's body (the text between the parentheses of its CREATE TABLE). */
export const OUTBOX_TABLE_020 = `
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    batch_num INTEGER NOT NULL REFERENCES batches(num) ON DELETE CASCADE,
    key TEXT NOT NULL,
    type TEXT NOT NULL,
    status TEXT NOT NULL,
    item_id TEXT, run_id TEXT, reason TEXT,
    data TEXT NOT NULL DEFAULT '{}',
    created_at INTEGER NOT NULL,
    due_at INTEGER NOT NULL DEFAULT 0,
    owner TEXT, lease_until INTEGER, fence INTEGER NOT NULL DEFAULT 0,
    attempts INTEGER NOT NULL DEFAULT 0,
    delivered TEXT NOT NULL DEFAULT '[]',
    last_error TEXT, last_error_at INTEGER, sent_at INTEGER`;

/** The outbox's indexes, each named for its reader. */
export const OUTBOX_INDEXES_020: readonly string[] = [
  // Read by: every write of an event (INSERT OR IGNORE: one event per key), outbox.ts and the triggers below.
  'CREATE UNIQUE INDEX outbox_for_key ON outbox(batch_num, key)',
  // Read by: outbox.ts claim, the pending events due (as 017's outbox_due).
  "CREATE INDEX outbox_due ON outbox(due_at, id) WHERE status = 'pending'",
  // Read by: outbox.ts collateHeld (a batch's facts and digests) and state (its undelivered events);
  // the batch.finished trigger's count of the batch's earlier ends.
  'CREATE INDEX outbox_for_kind ON outbox(batch_num, type, status, created_at)',
];

/** The outbox's triggers: an item held, the last item ending, a share of the budget reached. */
export const OUTBOX_TRIGGERS_020 = `
  CREATE TRIGGER outbox_held AFTER UPDATE OF state ON items WHEN new.state = 'held' AND old.state IS NOT 'held' BEGIN
    INSERT OR IGNORE INTO outbox (batch_num, key, type, status, item_id, run_id, reason, created_at)
    SELECT new.batch_num, 'held:' || new.id || ':' || coalesce(new.run_id, ''), 'item.held', 'fact', new.id, new.run_id, new.hold_reason, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
    FROM batches b WHERE b.num = new.batch_num AND json_extract(b.settings, '$.notify') IS NOT NULL;
  END;
  -- An item ending moves item_counts (migration 012): a terminal state's count grows last.
  CREATE TRIGGER outbox_finished_grown AFTER UPDATE OF n ON item_counts WHEN new.state IN ('completed', 'failed', 'error', 'cancelled') AND new.n > old.n BEGIN
    
    INSERT OR IGNORE INTO outbox (batch_num, key, type, status, created_at)
    SELECT new.batch_num, 'finished:' || (SELECT count(*) FROM outbox o WHERE o.batch_num = new.batch_num AND o.type = 'batch.finished'),
           'batch.finished', 'pending', CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
    FROM batches b WHERE b.num = new.batch_num AND json_extract(b.settings, '$.notify') IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM item_counts c WHERE c.batch_num = new.batch_num AND c.state IN ('queued', 'submitting', 'running', 'waiting', 'held', 'flight') AND c.n > 0);
  END;
  CREATE TRIGGER outbox_finished_first AFTER INSERT ON item_counts WHEN new.state IN ('completed', 'failed', 'error', 'cancelled') BEGIN
    
    INSERT OR IGNORE INTO outbox (batch_num, key, type, status, created_at)
    SELECT new.batch_num, 'finished:' || (SELECT count(*) FROM outbox o WHERE o.batch_num = new.batch_num AND o.type = 'batch.finished'),
           'batch.finished', 'pending', CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
    FROM batches b WHERE b.num = new.batch_num AND json_extract(b.settings, '$.notify') IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM item_counts c WHERE c.batch_num = new.batch_num AND c.state IN ('queued', 'submitting', 'running', 'waiting', 'held', 'flight') AND c.n > 0);
  END;
  -- A decision with a cost moves batch_spend (batch-num-keys.ts): its approved cost is the total.
  CREATE TRIGGER outbox_budget_grown AFTER UPDATE OF approved ON batch_spend WHEN new.approved > old.approved BEGIN
    
    INSERT OR IGNORE INTO outbox (batch_num, key, type, status, data, created_at)
    SELECT new.batch_num, 'budget:' || s.pct, 'budget.reached', 'pending',
           json_object('share', s.pct, 'budget', json_extract(b.policy, '$.confirm_scope.batch_budget'), 'approved', new.approved), CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
    FROM batches b
      JOIN (SELECT 80 AS pct UNION ALL SELECT 100 AS pct) s
    WHERE b.num = new.batch_num AND json_extract(b.settings, '$.notify') IS NOT NULL
      AND json_extract(b.policy, '$.confirm_scope.batch_budget') > 0
      AND new.approved >= json_extract(b.policy, '$.confirm_scope.batch_budget') * s.pct / 100.0
      AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.batch_num = new.batch_num AND o.key = 'budget:' || s.pct);
  END;
  CREATE TRIGGER outbox_budget_first AFTER INSERT ON batch_spend WHEN new.approved > 0 BEGIN
    
    INSERT OR IGNORE INTO outbox (batch_num, key, type, status, data, created_at)
    SELECT new.batch_num, 'budget:' || s.pct, 'budget.reached', 'pending',
           json_object('share', s.pct, 'budget', json_extract(b.policy, '$.confirm_scope.batch_budget'), 'approved', new.approved), CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
    FROM batches b
      JOIN (SELECT 80 AS pct UNION ALL SELECT 100 AS pct) s
    WHERE b.num = new.batch_num AND json_extract(b.settings, '$.notify') IS NOT NULL
      AND json_extract(b.policy, '$.confirm_scope.batch_budget') > 0
      AND new.approved >= json_extract(b.policy, '$.confirm_scope.batch_budget') * s.pct / 100.0
      AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.batch_num = new.batch_num AND o.key = 'budget:' || s.pct);
  END;`;
