import type { Clock } from '../../clock.js';
import { BatchRepo } from './batches.js';
import { FlightRepo } from './flights.js';
import { Claims } from './claims.js';
import type { Db } from './database.js';
import { DecisionRepo } from './decisions.js';
import { FileRepo } from './files.js';
import { FileClaimRepo } from './file-claims.js';
import { ItemRepo } from './items.js';
import { ItemReads } from './reads.js';
import { Counts } from './counts.js';
import { ModelRunRepo } from './model-runs.js';
import { Summaries } from './summaries.js';
import { Aggregates } from './aggregates.js';
import { RunRepo } from './runs.js';
import { ThreadRepo } from './threads.js';
import { WebSessionRepo } from './web-sessions.js';
import { ForecastRepo } from './forecasts.js';

/** The SQLite adapter's tables, one repository each; only the adapter sees them. */
export interface Repos {
  db: Db;
  /** The store's clock: every time the adapter writes. */
  clock: Clock;
  batches: BatchRepo;
  items: ItemRepo;
  reads: ItemReads;
  counts: Counts;
  flights: FlightRepo;
  runs: RunRepo;
  decisions: DecisionRepo;
  files: FileRepo;
  fileClaims: FileClaimRepo;
  threads: ThreadRepo;
  modelRuns: ModelRunRepo;
  summaries: Summaries;
  claims: Claims;
  aggregates: Aggregates;
  webSessions: WebSessionRepo;
  forecasts: ForecastRepo;
}

/** Builds the repositories of one connection. */
export function reposOf(db: Db, clock: Clock): Repos {
  const batches = new BatchRepo(db, clock);
  const items = new ItemRepo(db, clock);
  const threads = new ThreadRepo(db);
  const flights = new FlightRepo(db, clock, batches);
  const reads = new ItemReads(db);
  const counts = new Counts(db);
  return {
    db,
    clock,
    batches,
    items,
    reads,
    counts,
    flights,
    runs: new RunRepo(db, clock),
    decisions: new DecisionRepo(db, clock),
    files: new FileRepo(db, clock),
    fileClaims: new FileClaimRepo(db),
    threads,
    modelRuns: new ModelRunRepo(db, clock),
    summaries: new Summaries(db),
    claims: new Claims(db, clock, { reads, counts, threads, flights, batches }),
    aggregates: new Aggregates(db),
    webSessions: new WebSessionRepo(db),
    forecasts: new ForecastRepo(db),
  };
}
