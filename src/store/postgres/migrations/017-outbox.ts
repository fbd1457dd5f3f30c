// PostgreSQL's 017_outbox (issue 31), as shipped: text only, byte for byte (trailing spaces
// included), never built from live code. test/store/migration-text.test.ts pins its hash.
//
// The outbox's table, its indexes, and two trigger functions: outbox_item_moved (an item held:
// its fact; an item ended with no queued or unfinished item left in its batch: `batch.finished`)
// and outbox_budget (each share, 80 % and 100 %, of the batch budget the approved cost reached,
// told once). The batch's row is locked before an end or a budget is looked at: two workers
// ending the last two items at once (or spending the last of a budget) are taken one after the
// other, and the second sees the first's change (READ COMMITTED: each statement of the function
// reads what is committed when it starts). 019 and 020 replace the functions; the triggers stay.

/** The outbox's table, indexes, trigger functions and triggers, by the batch's text id (`batch_id`). */
export const OUTBOX_017 = `
  CREATE TABLE outbox (
    id BIGSERIAL PRIMARY KEY,
    batch_id TEXT NOT NULL REFERENCES batches(id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    type TEXT NOT NULL,
    status TEXT NOT NULL,
    item_id TEXT, run_id TEXT, reason TEXT,
    data TEXT NOT NULL DEFAULT '{}',
    created_at BIGINT NOT NULL,
    due_at BIGINT NOT NULL DEFAULT 0,
    owner TEXT, lease_until BIGINT, fence BIGINT NOT NULL DEFAULT 0,
    attempts INTEGER NOT NULL DEFAULT 0,
    delivered TEXT NOT NULL DEFAULT '[]',
    last_error TEXT, last_error_at BIGINT, sent_at BIGINT);
  
  CREATE UNIQUE INDEX outbox_key ON outbox(batch_id, key);
  CREATE INDEX outbox_due ON outbox(due_at, id) WHERE status = 'pending';
  CREATE INDEX outbox_kind ON outbox(batch_id, type, status, created_at);
  
  CREATE OR REPLACE FUNCTION outbox_item_moved() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE n integer;
  BEGIN
    IF NOT EXISTS (SELECT 1 FROM batches WHERE id = NEW.batch_id AND settings::jsonb ? 'notify') THEN RETURN NULL; END IF;
    IF NEW.state = 'held' THEN
      INSERT INTO outbox (batch_id, key, type, status, item_id, run_id, reason, created_at)
      VALUES (NEW.batch_id, 'held:' || NEW.id || ':' || coalesce(NEW.run_id, ''), 'item.held', 'fact', NEW.id, NEW.run_id, NEW.hold_reason, (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
      ON CONFLICT (batch_id, key) DO NOTHING;
    ELSIF NEW.state IN ('completed', 'failed', 'error', 'cancelled') AND OLD.state NOT IN ('completed', 'failed', 'error', 'cancelled') THEN
      PERFORM 1 FROM batches WHERE id = NEW.batch_id FOR NO KEY UPDATE;
      IF NOT EXISTS (SELECT 1 FROM items WHERE batch_id = NEW.batch_id AND state = 'queued')
         AND NOT EXISTS (SELECT 1 FROM items WHERE batch_id = NEW.batch_id AND state <> 'queued' AND state IN ('queued', 'submitting', 'running', 'waiting', 'held', 'flight')) THEN
        SELECT count(*) INTO n FROM outbox WHERE batch_id = NEW.batch_id AND type = 'batch.finished';
        INSERT INTO outbox (batch_id, key, type, status, created_at)
        VALUES (NEW.batch_id, 'finished:' || n, 'batch.finished', 'pending', (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
        ON CONFLICT (batch_id, key) DO NOTHING;
      END IF;
    END IF;
    RETURN NULL;
  END $$;
  CREATE TRIGGER outbox_item_moved AFTER UPDATE OF state ON items FOR EACH ROW
    WHEN (OLD.state IS DISTINCT FROM NEW.state AND (NEW.state = 'held' OR NEW.state IN ('completed', 'failed', 'error', 'cancelled')))
    EXECUTE FUNCTION outbox_item_moved();
  CREATE FUNCTION outbox_budget() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE budget numeric; total numeric; pct integer;
  BEGIN
    SELECT (policy::jsonb #>> '{confirm_scope,batch_budget}')::numeric INTO budget FROM batches
      WHERE id = NEW.batch_id AND settings::jsonb ? 'notify' FOR NO KEY UPDATE;
    IF budget IS NULL OR budget <= 0 THEN RETURN NULL; END IF;
    SELECT coalesce(sum(cost), 0) INTO total FROM decisions WHERE batch_id = NEW.batch_id;
    FOREACH pct IN ARRAY ARRAY[80, 100] LOOP
      IF total >= budget * pct / 100.0 THEN
        INSERT INTO outbox (batch_id, key, type, status, data, created_at)
        VALUES (NEW.batch_id, 'budget:' || pct, 'budget.reached', 'pending',
                json_build_object('share', pct, 'budget', budget, 'approved', total)::text, (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
        ON CONFLICT (batch_id, key) DO NOTHING;
      END IF;
    END LOOP;
    RETURN NULL;
  END $$;
  CREATE TRIGGER outbox_budget AFTER INSERT ON decisions FOR EACH ROW WHEN (NEW.cost > 0) EXECUTE FUNCTION outbox_budget();`;
