// SQLite's 033_state_trigger (issue 39.6): text only, never built from live code.
// test/store/migration-text.test.ts pins its hash.
//
// An item's change of state is one trigger, and a count's change none. Before, an item's
// change of state moved item_counts (012's item_counts_state), outbox_held watched the item,
// and the outbox's two batch.finished triggers watched item_counts: they fired on every
// update of a count, and each flight's start and end moves the row 'flight' (030). A firing
// costs SQLite a trigger program even when its WHEN is false: in the store alone
// (test/bench/store-per-run.ts) they were a third of the statements that start and end a run.
// Now one trigger on items counts the old state down and the new one up and writes the held
// fact as 020 did; whether a batch finished is looked at once per write transaction, just
// before it commits, for the batches an item of which ended in it (src/store/sqlite/database.ts
// finishBatches), with the same rule and key as the triggers had.

/** The statements of 033, in order. */
export const STATE_TRIGGER_033 = `
  DROP TRIGGER item_counts_state;
  DROP TRIGGER outbox_held;
  DROP TRIGGER outbox_finished_grown;
  DROP TRIGGER outbox_finished_first;
  CREATE TRIGGER item_state_changed AFTER UPDATE OF state, batch_num ON items
    WHEN old.state IS NOT new.state OR old.batch_num IS NOT new.batch_num BEGIN
    UPDATE item_counts SET n = n - 1 WHERE batch_num = old.batch_num AND state = old.state;
    INSERT INTO item_counts (batch_num, state, n) VALUES (new.batch_num, new.state, 1)
      ON CONFLICT (batch_num, state) DO UPDATE SET n = n + 1;
    INSERT OR IGNORE INTO outbox (batch_num, key, type, status, item_id, run_id, reason, created_at)
    SELECT new.batch_num, 'held:' || new.id || ':' || coalesce(new.run_id, ''), 'item.held', 'fact', new.id, new.run_id, new.hold_reason, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
    FROM batches b WHERE new.state = 'held' AND old.state IS NOT 'held'
      AND b.num = new.batch_num AND json_extract(b.settings, '$.notify') IS NOT NULL;
  END;
`;
