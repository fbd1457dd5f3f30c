import type { Clock } from '../../clock.js';
import { BatchRepo } from './batches.js';
import { FlightRepo } from './flights.js';
import { Claims } from './claims.js';
import type { Db } from './database.js';
import { DecisionRepo } from './decisions.js';
import { FileRepo } from './files.js';
import { ItemRepo } from './items.js';
import { ModelRunRepo } from './model-runs.js';
import { NotebookQueries } from './notebook-queries.js';
import { Projections } from './projections.js';
import { RunRepo } from './runs.js';
import { ThreadRepo } from './threads.js';

/** The SQLite adapter's tables, one repository each; only the adapter sees them. */
export interface Repos {
  db: Db;
  /** The store's clock: every time the adapter writes. */
  clock: Clock;
  batches: BatchRepo;
  items: ItemRepo;
  flights: FlightRepo;
  runs: RunRepo;
  decisions: DecisionRepo;
  files: FileRepo;
  threads: ThreadRepo;
  modelRuns: ModelRunRepo;
  notebook: NotebookQueries;
  claims: Claims;
  projections: Projections;
}

/** Builds the repositories of one connection. */
export function reposOf(db: Db, clock: Clock): Repos {
  const batches = new BatchRepo(db, clock);
  const items = new ItemRepo(db, clock);
  const threads = new ThreadRepo(db);
  const flights = new FlightRepo(db, clock, batches);
  return {
    db,
    clock,
    batches,
    items,
    flights,
    runs: new RunRepo(db, clock),
    decisions: new DecisionRepo(db, clock),
    files: new FileRepo(db, clock),
    threads,
    modelRuns: new ModelRunRepo(db, clock),
    notebook: new NotebookQueries(db),
    claims: new Claims(db, clock, { items, threads, flights, batches }),
    projections: new Projections(db),
  };
}
