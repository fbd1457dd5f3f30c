// PostgreSQL's 030_claim_writes_flight (issue 39.5), as shipped: text only, never built from
// live code. test/store/migration-text.test.ts pins its hash.
//
// A claim inserts the item's flight alone: the item's row stays as it was queued, and the time
// the item started lives in its flight until the flight lands. Items in flight from before
// (their rows marked 'flight') keep their rows as queued: they leave the state and sort
// indexes, as a claim's rows now never enter them (the counts' triggers move them to queued,
// where the counts take the flights out).

/** The statements of 030, in order. */
export const CLAIM_WRITES_FLIGHT_030 = `
  ALTER TABLE flights ADD COLUMN started_at TEXT;
  UPDATE flights f SET started_at = i.started_at FROM items i WHERE i.key = f.item_key;
  UPDATE items SET state = 'queued' WHERE state = 'flight';
`;
