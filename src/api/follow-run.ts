import type { ResolvedOptions } from './options.js';
import { pollUntil, isStreamFailure } from './poll.js';
import { backoffDelay } from './retry-policy.js';
import { isFinalRunEvent, runOfEvent, type RunEvent } from './run-events.js';
import type { Run } from './run-schema.js';
import { isRunFinished } from './run-status.js';
import { readEventStream, type StreamProgress } from './sse-stream.js';
import type { Transport } from './transport.js';
import { abortReason } from './signals.js';

/** Connections in a row without a new event id before following switches to polling. */
export const STREAM_FAILURES_BEFORE_POLLING = 3;

/** Options of `ServiceClient.followRun`. */
export interface FollowRunOptions {
  /** `sse` streams events (reconnecting, falling back to polling); `poll` only polls. @default 'sse' */
  mode?: 'sse' | 'poll';
  /** Resume the stream after this event id. @default undefined (from the start) */
  after?: number;
  signal?: AbortSignal;
  /**
   * The run may have ended while nobody followed it (a resumed batch): read it once first
   * (`GET /runs/{id}` over the shared connections) and stream only when it is still going.
   * Ten thousand re-attached runs that ended meanwhile then cost a short request each
   * instead of a connection and the replay of their events. @default false
   */
  readFirst?: boolean;
  /** Every event received, unknown names included (narrow with `isTextDeltaEvent`, …). Not called while polling. */
  onEvent?: (event: RunEvent) => void;
}

/** What following needs from the client. */
export interface FollowDeps {
  transport: Transport;
  options: ResolvedOptions;
  getRun: (id: string, signal?: AbortSignal) => Promise<Run>;
}

/**
 * Follows a run until it is finished (neither `running` nor `cancelling`) and returns it.
 * SSE: reconnects with `after` = last event id after the server ends a stream; counts
 * connections that bring no new event id (or fail); after
 * {@link STREAM_FAILURES_BEFORE_POLLING} in a row, polls `GET /runs/{id}` instead.
 */
export async function followRun(deps: FollowDeps, runId: string, opts: FollowRunOptions = {}): Promise<Run> {
  if (opts.mode === 'poll') return pollRun(deps, runId, opts.signal);
  if (opts.readFirst) {
    const run = await deps.getRun(runId, opts.signal);
    if (isRunFinished(run)) return run;
  }
  const { options } = deps;
  let after = opts.after;
  let failures = 0;
  for (;;) {
    const progress: StreamProgress = { lastEventId: after ?? null, retryMs: null, events: 0 };
    const before = progress.lastEventId;
    let failure: unknown = null;
    try {
      let final: RunEvent | null = null;
      await readEventStream(
        deps.transport,
        // Nobody sees the events but this loop: only the final `run` event's data is parsed.
        { runId, after, signal: opts.signal, idleTimeoutMs: options.streamIdleTimeoutMs, maxEventChars: options.maxEventChars, progress, parse: opts.onEvent ? 'all' : 'run' },
        (event) => {
          opts.onEvent?.(event);
          if (!isFinalRunEvent(event)) return false;
          final = event;
          return true;
        },
      );
      if (final) {
        const run = runOfEvent(final) ?? (await deps.getRun(runId, opts.signal));
        if (isRunFinished(run)) return run;
      }
    } catch (err) {
      if (opts.signal?.aborted || !isStreamFailure(err)) throw err;
      failure = err;
    }
    if (progress.lastEventId !== null) after = progress.lastEventId;
    const progressed = progress.lastEventId !== before;
    failures = progressed ? 0 : failures + 1;
    const reason = failure instanceof Error ? failure.message : progressed ? 'stream ended' : 'stream ended without new events';
    if (failures >= STREAM_FAILURES_BEFORE_POLLING) {
      options.onLog({ type: 'stream-fallback', runId, failures, reason });
      return pollRun(deps, runId, opts.signal);
    }
    const delayMs = failure === null && progressed
      ? Math.min(progress.retryMs ?? 0, options.retry.maxDelayMs)
      : backoffDelay(Math.max(failures, 1), options.retry, options.random);
    options.onLog({ type: 'stream-reconnect', runId, after: after ?? null, delayMs, failures, reason });
    await options.sleep(delayMs, opts.signal);
    if (opts.signal?.aborted) throw abortReason(opts.signal);
  }
}

function pollRun(deps: FollowDeps, runId: string, signal: AbortSignal | undefined): Promise<Run> {
  return pollUntil({
    read: () => deps.getRun(runId, signal),
    isDone: isRunFinished,
    intervalMs: deps.options.pollIntervalMs,
    waitFirst: false,
    maxFailures: deps.options.retry.maxAttempts,
    sleep: deps.options.sleep,
    signal,
    onLog: deps.options.onLog,
    id: runId,
  });
}
