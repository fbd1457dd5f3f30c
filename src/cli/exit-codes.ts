// The error classes alone, not the client's barrel: every command needs this module, few need the client.
import { AuthError } from '../api/errors.js';
import { ResqError } from '../errors.js';
import type { RunnerResult, StateCounts } from '../runner/index.js';

/** The process exit codes users' scripts rely on (DESIGN.md, CLI). */
export const EXIT = {
  ok: 0,
  failed: 1,
  usage: 2,
  held: 3,
  /** `resq score --fail-under R`: a scorer's pass rate is under R. */
  belowPassRate: 4,
  interrupted: 130,
} as const;

/** The one place error codes become exit codes. */
export function exitCodeForError(err: unknown): number {
  if (err instanceof AuthError) return EXIT.usage;
  if (err instanceof ResqError) {
    if (err.code === 'RESQ_INPUT' || err.code === 'RESQ_CONFIG' || err.code === 'RESQ_USAGE' || err.code === 'RESQ_ALREADY_ANSWERED' || err.code === 'RESQ_PAUSE_MOVED' || err.code === 'RESQ_OVER_BUDGET') return EXIT.usage;
    return EXIT.failed;
  }
  return EXIT.failed;
}

/** Exit code for a batch from its item counts. */
export function exitCodeForCounts(counts: StateCounts): number {
  if (counts.failed + counts.error + counts.cancelled > 0) return EXIT.failed;
  const unfinished = counts.queued + counts.submitting + counts.running + counts.waiting;
  if (counts.held > 0) return EXIT.held;
  if (unfinished > 0) return EXIT.failed;
  return EXIT.ok;
}

/**
 * Exit code after a runner returned. With `--limit`, items left queued are what was not
 * asked for: a run that completed what it was asked exits 0 (it says how to go on).
 */
export function exitCodeForRun(r: RunnerResult, o: { limited?: boolean } = {}): number {
  if (r.fatal) return exitCodeForError(r.fatal);
  if (r.interrupted) return EXIT.interrupted;
  if (r.stalled > 0) return EXIT.failed;
  return exitCodeForCounts(o.limited ? { ...r.counts, queued: 0 } : r.counts);
}
