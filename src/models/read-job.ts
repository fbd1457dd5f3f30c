import { isModelRunFinished, type ModelRun, type ServiceClient } from '../api/index.js';
import type { Clock } from '../clock.js';
import { InputError } from '../errors.js';
import { readFailure } from './failure-kind.js';
import type { PollPlan } from './poll-plan.js';

/** How reading a running job ended; `reads` counts the reads that got an answer. */
export type ReadOutcome =
  | { kind: 'finished'; run: ModelRun; reads: number }
  | { kind: 'stopped'; reads: number }
  | { kind: 'unreadable'; reads: number; message: string }
  | { kind: 'gone'; reads: number; message: string }
  | { kind: 'fatal'; reads: number; error: unknown };

/** What {@link readJob} needs. */
export interface ReadJobOptions {
  client: Pick<ServiceClient, 'getModelRun'>;
  plan: PollPlan;
  /** The model run id. */
  id: string;
  /** Where the service said to read the job; null → `GET /model-runs/{id}`. */
  pollUrl: string | null;
  /** `clock.now()` when this process saw the job admitted; null when admitted earlier (read at once). */
  admittedAt: number | null;
  /** Stops reading (the job goes on at the service). */
  signal: AbortSignal;
  /** Failed reads in a row before giving up on the job for now. */
  maxFailures: number;
  /** Time: the waits between reads and the job's age. */
  clock: Clock;
}

/**
 * Reads a running model job on the poll plan until it is no longer running. A read that
 * fails transiently (network, 408, 429, 5xx, an odd answer) is tried again on the plan's
 * gaps, up to `maxFailures` in a row. Teaches the plan how long the job took.
 * @throws an error the service cannot have caused (a bug)
 */
export async function readJob(o: ReadJobOptions): Promise<ReadOutcome> {
  let where = o.pollUrl ?? o.id;
  let reads = 0;
  let failures = 0;
  await o.clock.sleep(o.plan.firstDelay(o.admittedAt === null ? Infinity : o.clock.now() - o.admittedAt), o.signal);
  for (;;) {
    if (o.signal.aborted) return { kind: 'stopped', reads };
    let run: ModelRun;
    try {
      run = await o.client.getModelRun(where, { signal: o.signal });
      reads++;
      failures = 0;
    } catch (err) {
      // A poll URL on another origin: read by id instead (the key never leaves the base URL's origin).
      if (err instanceof InputError && where !== o.id) {
        where = o.id;
        continue;
      }
      const kind = readFailure(err, o.signal.aborted);
      const message = err instanceof Error ? err.message : String(err);
      if (kind === 'aborted') return { kind: 'stopped', reads };
      if (kind === 'fatal') return { kind: 'fatal', reads, error: err };
      if (kind === 'gone') return { kind: 'gone', reads, message: `model run ${o.id} is not known to the service (${message})` };
      if (kind === 'bug') throw err;
      if (++failures >= o.maxFailures) return { kind: 'unreadable', reads, message: `model run ${o.id} could not be read (${message})` };
      await o.clock.sleep(o.plan.nextDelay(failures), o.signal);
      continue;
    }
    if (isModelRunFinished(run)) {
      if (o.admittedAt !== null) o.plan.observe(o.clock.now() - o.admittedAt);
      return { kind: 'finished', run, reads };
    }
    await o.clock.sleep(o.plan.nextDelay(reads), o.signal);
  }
}
