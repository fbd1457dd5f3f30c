// SQLite's 030_claim_writes_flight (issue 39.5), as shipped: text only, never built from live
// code. test/store/migration-text.test.ts pins its hash.
//
// A claim inserts the item's flight alone: the item's row stays as it was queued, and the time
// the item started lives in its flight until the flight lands. Items in flight from before
// (their rows marked 'flight') keep their rows as queued, so they leave the state and sort
// indexes, as a claim's rows now never enter them. The counts row 'flight' counts the batch's
// flights (kept by triggers on flights), so the runs in flight are read without a scan.

/** The statements of 030, in order. */
export const CLAIM_WRITES_FLIGHT_030 = `
  ALTER TABLE flights ADD COLUMN started_at TEXT;
  UPDATE flights SET started_at = (SELECT i.started_at FROM items i WHERE i.key = flights.item_key);
  UPDATE items SET state = 'queued' WHERE state = 'flight';
  DELETE FROM item_counts WHERE state = 'flight';
  INSERT INTO item_counts (batch_num, state, n) SELECT batch_num, 'flight', count(*) FROM flights GROUP BY batch_num;
  CREATE TRIGGER flights_counted_insert AFTER INSERT ON flights BEGIN
    INSERT INTO item_counts (batch_num, state, n) VALUES (new.batch_num, 'flight', 1)
      ON CONFLICT (batch_num, state) DO UPDATE SET n = n + 1;
  END;
  CREATE TRIGGER flights_counted_delete AFTER DELETE ON flights BEGIN
    UPDATE item_counts SET n = n - 1 WHERE batch_num = old.batch_num AND state = 'flight';
  END;
  DROP VIEW item_summary;
  CREATE VIEW item_summary AS
    SELECT b.name AS batch, i.id,
           CASE WHEN f.item_key IS NULL THEN i.state ELSE f.state END AS state,
           CASE WHEN f.item_key IS NULL THEN i.run_status ELSE f.run_status END AS run_status,
           i.question,
           CASE WHEN f.item_key IS NULL THEN i.thread_id ELSE f.thread_id END AS thread_id,
           CASE WHEN f.item_key IS NULL THEN i.run_id ELSE f.run_id END AS latest_run_id,
           CASE WHEN f.item_key IS NULL THEN i.step ELSE f.step END AS responds,
           substr(CASE WHEN f.item_key IS NULL THEN i.text ELSE f.text END, 1, 200) AS answer_start,
           i.error, i.hold_reason,
           CASE WHEN f.item_key IS NULL THEN i.started_at ELSE f.started_at END AS started_at,
           i.finished_at
    FROM items i LEFT JOIN flights f ON f.item_key = i.key JOIN batches b ON b.num = i.batch_num;
`;
