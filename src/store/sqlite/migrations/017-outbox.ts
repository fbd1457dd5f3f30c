// SQLite's 017_outbox (issue 31), as shipped: text only, byte for byte (trailing spaces
// included), never built from live code. test/store/migration-text.test.ts pins its hash.
//
// The outbox's table and triggers. Rows: a held item's fact (`item.held`, status `fact`, then
// `folded` once in a digest) or an event (status `pending`, then `sent`). Events are written by
// the change that causes them, in its transaction, by the triggers (so no path that holds an
// item, ends one, or records a decision can forget its event), and only for a batch whose
// settings name receivers. `batch.finished` is written once no item of the batch is unfinished
// (after item_counts moved: exact then); `budget.reached` once for each share (80 %, 100 %) of
// the batch budget the approved cost reached.

/** The outbox's table, indexes and triggers, by the batch's text id (`batch_id`). */
export const OUTBOX_017 = `
  CREATE TABLE outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    batch_id TEXT NOT NULL REFERENCES batches(id) ON DELETE CASCADE,
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
    last_error TEXT, last_error_at INTEGER, sent_at INTEGER);
  
  CREATE UNIQUE INDEX outbox_key ON outbox(batch_id, key);
  CREATE INDEX outbox_due ON outbox(due_at, id) WHERE status = 'pending';
  CREATE INDEX outbox_kind ON outbox(batch_id, type, status, created_at);
  CREATE TRIGGER outbox_held AFTER UPDATE OF state ON items WHEN new.state = 'held' AND old.state IS NOT 'held' BEGIN
    INSERT OR IGNORE INTO outbox (batch_id, key, type, status, item_id, run_id, reason, created_at)
    SELECT new.batch_id, 'held:' || new.id || ':' || coalesce(new.run_id, ''), 'item.held', 'fact', new.id, new.run_id, new.hold_reason, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
    FROM batches b WHERE b.id = new.batch_id AND json_extract(b.settings, '$.notify') IS NOT NULL;
  END;
  -- An item ending moves item_counts (migration 012): a terminal state's count grows last.
  CREATE TRIGGER outbox_finished_grown AFTER UPDATE OF n ON item_counts WHEN new.state IN ('completed', 'failed', 'error', 'cancelled') AND new.n > old.n BEGIN
    
    INSERT OR IGNORE INTO outbox (batch_id, key, type, status, created_at)
    SELECT new.batch_id, 'finished:' || (SELECT count(*) FROM outbox o WHERE o.batch_id = new.batch_id AND o.type = 'batch.finished'),
           'batch.finished', 'pending', CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
    FROM batches b WHERE b.id = new.batch_id AND json_extract(b.settings, '$.notify') IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM item_counts c WHERE c.batch_id = new.batch_id AND c.state IN ('queued', 'submitting', 'running', 'waiting', 'held', 'flight') AND c.n > 0);
  END;
  CREATE TRIGGER outbox_finished_first AFTER INSERT ON item_counts WHEN new.state IN ('completed', 'failed', 'error', 'cancelled') BEGIN
    
    INSERT OR IGNORE INTO outbox (batch_id, key, type, status, created_at)
    SELECT new.batch_id, 'finished:' || (SELECT count(*) FROM outbox o WHERE o.batch_id = new.batch_id AND o.type = 'batch.finished'),
           'batch.finished', 'pending', CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
    FROM batches b WHERE b.id = new.batch_id AND json_extract(b.settings, '$.notify') IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM item_counts c WHERE c.batch_id = new.batch_id AND c.state IN ('queued', 'submitting', 'running', 'waiting', 'held', 'flight') AND c.n > 0);
  END;
  CREATE TRIGGER outbox_budget AFTER INSERT ON decisions WHEN new.cost > 0 BEGIN
    INSERT OR IGNORE INTO outbox (batch_id, key, type, status, data, created_at)
    SELECT new.batch_id, 'budget:' || s.pct, 'budget.reached', 'pending',
           json_object('share', s.pct, 'budget', json_extract(b.policy, '$.confirm_scope.batch_budget'), 'approved', t.total), CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
    FROM batches b
      JOIN (SELECT coalesce(sum(cost), 0) AS total FROM decisions WHERE batch_id = new.batch_id) t
      JOIN (SELECT 80 AS pct UNION ALL SELECT 100 AS pct) s
    WHERE b.id = new.batch_id AND json_extract(b.settings, '$.notify') IS NOT NULL
      AND json_extract(b.policy, '$.confirm_scope.batch_budget') > 0
      AND t.total >= json_extract(b.policy, '$.confirm_scope.batch_budget') * s.pct / 100.0;
  END;`;
