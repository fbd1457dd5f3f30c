/**
 * How many runs fit in the open files this process may hold. Pure: the limit is read by
 * descriptor-limit.ts, the session passes it in, the runner takes the lower of this and the
 * batch's cap. Measured on Linux (resq run, `ls /proc/PID/fd` at its peak): about 30
 * descriptors whatever the concurrency, then 2 per run in flight against a service
 * (its event stream and a request socket), 4 with the built-in simulator in the same process
 * (each connection's other end is here too).
 */

/** Descriptors held whatever the concurrency: Node itself (stdio, its event loop, worker threads), the database's files (file, WAL, shared memory, temporary files), the simulator's journal, lock and snapshot. Measured near 30; the rest is room. */
export const RESERVED_DESCRIPTORS = 48;

/** Descriptors one run in flight holds on a connection: its event stream and one request (creating it, answering, reading it). */
export const DESCRIPTORS_PER_RUN = 2;

/** Descriptors one download holds: its connection and the file it writes. */
export const DESCRIPTORS_PER_DOWNLOAD = 2;

/** What a worker of a batch is about to keep open. */
export interface DescriptorNeeds {
  /** Runs in flight the batch asks for (its concurrency). */
  concurrency: number;
  /** Downloads at once beside the runs (0 when the batch does not download). */
  downloads: number;
  /** The service is served by this very process (the built-in simulator): each connection is two descriptors here. */
  sameProcess: boolean;
}

/** What fits, and what was asked. */
export interface DescriptorFit {
  /** Runs in flight asked for. */
  concurrency: number;
  /** About how many open files that concurrency needs. */
  needed: number;
  /** Open files this process may hold; null when unknown (then nothing is lowered). */
  limit: number | null;
  /** Runs in flight that fit: at most `concurrency`, at least 1. */
  runs: number;
}

/**
 * Works out how many runs in flight fit under `limit` open files, and about how many the
 * asked concurrency needs. An unknown limit (null) fits everything.
 */
export function fitDescriptors(limit: number | null, needs: DescriptorNeeds): DescriptorFit {
  const sides = needs.sameProcess ? 2 : 1;
  const perRun = DESCRIPTORS_PER_RUN * sides;
  // A download's connection has its other end here too with the simulator; its file does not.
  const forDownloads = needs.downloads * (DESCRIPTORS_PER_DOWNLOAD + sides - 1);
  const fixed = RESERVED_DESCRIPTORS + forDownloads;
  const needed = fixed + needs.concurrency * perRun;
  if (limit === null || needed <= limit) return { concurrency: needs.concurrency, needed, limit, runs: needs.concurrency };
  const runs = Math.max(1, Math.min(needs.concurrency, Math.floor((limit - fixed) / perRun)));
  return { concurrency: needs.concurrency, needed, limit, runs };
}

/** Whether the fit runs fewer than asked (then it is said once). */
export function isLowered(fit: DescriptorFit): boolean {
  return fit.runs < fit.concurrency;
}
