// PostgreSQL's 012_item_counts: counts by state in slots of each server backend, kept by statement triggers, filled from the items there are.
// As shipped: text only, byte for byte; test/store/migration-text.test.ts pins its hash.

/** The whole of the migration, one script. */
export const ITEM_COUNTS_012 = `
      LOCK TABLE items IN SHARE ROW EXCLUSIVE MODE;
      CREATE TABLE item_counts (
        batch_id TEXT NOT NULL, state TEXT NOT NULL, slot INTEGER NOT NULL, n BIGINT NOT NULL,
        PRIMARY KEY (batch_id, state, slot));
      INSERT INTO item_counts (batch_id, state, slot, n) SELECT batch_id, state, 0, count(*) FROM items GROUP BY batch_id, state;
      CREATE FUNCTION item_counts_added() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO item_counts (batch_id, state, slot, n)
          SELECT batch_id, state, pg_backend_pid(), count(*) FROM added GROUP BY batch_id, state
          ON CONFLICT (batch_id, state, slot) DO UPDATE SET n = item_counts.n + excluded.n;
        RETURN NULL;
      END $$;
      CREATE FUNCTION item_counts_removed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO item_counts (batch_id, state, slot, n)
          SELECT batch_id, state, pg_backend_pid(), -count(*) FROM removed GROUP BY batch_id, state
          ON CONFLICT (batch_id, state, slot) DO UPDATE SET n = item_counts.n + excluded.n;
        RETURN NULL;
      END $$;
      CREATE FUNCTION item_counts_moved() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO item_counts (batch_id, state, slot, n)
          SELECT batch_id, state, pg_backend_pid(), sum(d) FROM (
            SELECT batch_id, state, -1 AS d FROM before_rows UNION ALL SELECT batch_id, state, 1 FROM after_rows) t
          GROUP BY batch_id, state HAVING sum(d) <> 0
          ON CONFLICT (batch_id, state, slot) DO UPDATE SET n = item_counts.n + excluded.n;
        RETURN NULL;
      END $$;
      CREATE TRIGGER item_counts_insert AFTER INSERT ON items REFERENCING NEW TABLE AS added
        FOR EACH STATEMENT EXECUTE FUNCTION item_counts_added();
      CREATE TRIGGER item_counts_delete AFTER DELETE ON items REFERENCING OLD TABLE AS removed
        FOR EACH STATEMENT EXECUTE FUNCTION item_counts_removed();
      CREATE TRIGGER item_counts_update AFTER UPDATE ON items REFERENCING OLD TABLE AS before_rows NEW TABLE AS after_rows
        FOR EACH STATEMENT EXECUTE FUNCTION item_counts_moved();
    `;
