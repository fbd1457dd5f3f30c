import { ResponseShapeError } from './errors.js';
import { classifyFailure } from './failure-class.js';
import type { ClientLogListener } from './log-events.js';
import { abortReason } from './signals.js';

/** What {@link pollUntil} needs. */
export interface PollOptions<T> {
  /** Reads the current state (one request, with the client's own retries). */
  read: () => Promise<T>;
  /** True when polling is over. */
  isDone: (value: T) => boolean;
  intervalMs: number;
  /** Wait one interval before the first read (the caller already holds a fresh state). */
  waitFirst: boolean;
  /** Polls in a row that may fail (after their own retries) before the error is thrown. */
  maxFailures: number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  signal?: AbortSignal;
  onValue?: (value: T) => void;
  onLog: ClientLogListener;
  /** Run id or model run id, for log events. */
  id: string;
}

/**
 * Reads every `intervalMs` until `isDone`. A read that fails transiently (network, timeout,
 * 408, 429, 5xx, after the request's own retries) is logged and polling goes on, up to
 * `maxFailures` in a row: a short outage must not end hours of following.
 */
export async function pollUntil<T>(opts: PollOptions<T>): Promise<T> {
  let failures = 0;
  let first = true;
  for (;;) {
    if (!first || opts.waitFirst) {
      await opts.sleep(opts.intervalMs, opts.signal);
      if (opts.signal?.aborted) throw abortReason(opts.signal);
    }
    first = false;
    let value: T;
    try {
      value = await opts.read();
    } catch (err) {
      if (opts.signal?.aborted || !isTransient(err)) throw err;
      failures += 1;
      if (failures >= opts.maxFailures) throw err;
      opts.onLog({ type: 'poll-error', id: opts.id, failures, message: (err as Error).message });
      continue;
    }
    failures = 0;
    opts.onValue?.(value);
    if (opts.isDone(value)) return value;
  }
}

/** Failures worth reading again later, by the one taxonomy (failure-class.ts): the service or the network, not the request itself. */
export function isTransient(err: unknown): boolean {
  return classifyFailure({ error: err, aborted: false, request: 'read' }).action === 'retry';
}

/** Failures that make an event stream worth reconnecting (or replacing by polling). */
export function isStreamFailure(err: unknown): boolean {
  // A body that is not an event stream (a proxy, no SSE support): polling still works.
  return isTransient(err) || err instanceof ResponseShapeError;
}
