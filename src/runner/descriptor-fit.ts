import { DEFAULT_REQUEST_CONNECTIONS } from '../request-pool.js';

/**
 * How many runs fit in the open files this process may hold. Pure: the limit is read by
 * descriptor-limit.ts, the session passes it in, the runner takes the lower of this and the
 * batch's cap. Measured on Linux (resq run against a simulator in its own process, the most
 * entries of /proc/PID/fd while it ran): about 30 descriptors whatever the concurrency, one
 * per run in flight (its event stream's connection), and the requests' shared connections
 * (creating runs, answering, reading them: at most one per run, at most the client's request
 * pool of 256) — 2,281 with 2,000 runs in flight and none ending, at most 2,327 with 2,000 in
 * flight ending and starting every 3 s (streams closing as others open). With the built-in
 * simulator in the same process, each connection's other end is here too.
 */

/** Descriptors held whatever the concurrency: Node itself (stdio, its event loop, worker threads), the database's files (file, WAL, shared memory, temporary files), the simulator's journal, lock and snapshot. Measured near 30; the rest is room. */
export const RESERVED_DESCRIPTORS = 48;

/** Descriptors one run in flight holds alone: its event stream's connection. */
export const DESCRIPTORS_PER_RUN = 1;

/** Streams closing while others open, as runs end and start: one more descriptor for every this many runs. */
export const CHURN_RUNS_PER_DESCRIPTOR = 16;

/** The requests' shared connections `runs` runs in flight may hold: one each at most, never more than the request pool. */
export function requestDescriptors(runs: number): number {
  return Math.min(runs, DEFAULT_REQUEST_CONNECTIONS);
}

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
  // A download's connection has its other end here too with the simulator; its file does not.
  const forDownloads = needs.downloads * (DESCRIPTORS_PER_DOWNLOAD + sides - 1);
  const fixed = RESERVED_DESCRIPTORS + forDownloads;
  const need = (runs: number): number => fixed + sides * (runs * DESCRIPTORS_PER_RUN + Math.ceil(runs / CHURN_RUNS_PER_DESCRIPTOR) + requestDescriptors(runs));
  const needed = need(needs.concurrency);
  if (limit === null || needed <= limit) return { concurrency: needs.concurrency, needed, limit, runs: needs.concurrency };
  // The most runs whose need fits (need grows with runs), at least one.
  let lo = 1;
  let hi = needs.concurrency;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (need(mid) <= limit) lo = mid;
    else hi = mid - 1;
  }
  return { concurrency: needs.concurrency, needed, limit, runs: lo };
}

/** Whether the fit runs fewer than asked (then it is said once). */
export function isLowered(fit: DescriptorFit): boolean {
  return fit.runs < fit.concurrency;
}
