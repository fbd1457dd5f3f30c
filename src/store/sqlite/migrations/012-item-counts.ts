// SQLite's 012_item_counts: counts by state kept beside the items by triggers, filled from the items there are.
// As shipped: text only, byte for byte; test/store/migration-text.test.ts pins its hash.

/** The whole of the migration, one script. */
export const ITEM_COUNTS_012 = `
        CREATE TABLE item_counts (
          batch_id TEXT NOT NULL REFERENCES batches(id) ON DELETE CASCADE,
          state TEXT NOT NULL,
          n INTEGER NOT NULL,
          PRIMARY KEY (batch_id, state)
        ) WITHOUT ROWID;
        INSERT INTO item_counts (batch_id, state, n) SELECT batch_id, state, count(*) FROM items GROUP BY batch_id, state;
        CREATE TRIGGER item_counts_insert AFTER INSERT ON items BEGIN
          INSERT INTO item_counts (batch_id, state, n) VALUES (new.batch_id, new.state, 1)
            ON CONFLICT (batch_id, state) DO UPDATE SET n = n + 1;
        END;
        -- The item was counted, so its row exists (unless its batch is being deleted: then nothing to do).
        CREATE TRIGGER item_counts_delete AFTER DELETE ON items BEGIN
          UPDATE item_counts SET n = n - 1 WHERE batch_id = old.batch_id AND state = old.state;
        END;
        CREATE TRIGGER item_counts_state AFTER UPDATE OF state, batch_id ON items
          WHEN old.state IS NOT new.state OR old.batch_id IS NOT new.batch_id BEGIN
          UPDATE item_counts SET n = n - 1 WHERE batch_id = old.batch_id AND state = old.state;
          INSERT INTO item_counts (batch_id, state, n) VALUES (new.batch_id, new.state, 1)
            ON CONFLICT (batch_id, state) DO UPDATE SET n = n + 1;
        END;
      `;
