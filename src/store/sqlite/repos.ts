import { BatchRepo } from './batches.js';
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
  batches: BatchRepo;
  items: ItemRepo;
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
export function reposOf(db: Db): Repos {
  const items = new ItemRepo(db);
  const threads = new ThreadRepo(db);
  return {
    db,
    batches: new BatchRepo(db),
    items,
    runs: new RunRepo(db),
    decisions: new DecisionRepo(db),
    files: new FileRepo(db),
    threads,
    modelRuns: new ModelRunRepo(db),
    notebook: new NotebookQueries(db),
    claims: new Claims(db, items, threads),
    projections: new Projections(db),
  };
}
