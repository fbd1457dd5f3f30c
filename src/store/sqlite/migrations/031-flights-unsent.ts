// SQLite's 031_flights_unsent (issue 39.5), as shipped: text only, never built from live code.
// test/store/migration-text.test.ts pins its hash.
//
// Fewer pages written per commit: the flights keep one small partial index instead of
// flights_for_leases (batch_num, owner, lease_until), which every claim and end wrote an entry
// of and every heartbeat moved (a lease is renewed for all of a worker's flights). What needs
// a seek per claim is the count of answered items no worker has sent yet (counts.ts), the few
// rows of flights_unsent; a heartbeat, a retirement, a worker's count and the takeover's look
// read the flights table itself (at most the runs in flight, a narrow row each).

/** The statements of 031, in order. */
export const FLIGHTS_UNSENT_031 = `
  DROP INDEX flights_for_leases;
  CREATE INDEX flights_unsent ON flights(batch_num) WHERE owner IS NULL AND lease_until IS NULL AND state = 'waiting';
`;
