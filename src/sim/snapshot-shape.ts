// What a snapshot file holds, its own module: the journal and the version 1 reader use the shapes
// without loading the snapshot's reader and writer (which load them).
import type { ModelRunRecord, RunRecord, ThreadRecord, FileRecord } from './records.js';

/** A run as saved: everything but its live timeline and listeners. */
export type SavedRun = Omit<RunRecord, 'listeners' | 'live'>;
/** A model run as saved: everything but its promise. */
export type SavedModelRun = Omit<ModelRunRecord, 'done'>;

/**
 * The simulator's whole state as JSON: what `--sim` keeps beside the database. Version 2
 * keeps runs compact (what they wrote follows from their chain and progress); a version 1
 * file (whole event logs and transcripts) is read and converted.
 */
export interface SimSnapshot {
  version: 2;
  /** Where it was served; URLs in the records point there. */
  origin: string;
  clockOffsetMs: number;
  threadSeq: number;
  runs: SavedRun[];
  threads: ThreadRecord[];
  files: FileRecord[];
  modelRuns: SavedModelRun[];
  idempotency: [string, string][];
  /**
   * Number of the last journal record (journal.ts) this snapshot holds: the journal's later
   * records are applied on top of it. Absent in files written before the journal (their
   * journal, if any, is not read).
   */
  journalSeq?: number;
}
