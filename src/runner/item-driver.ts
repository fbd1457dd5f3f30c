import type { Run, ServiceClient } from '../api/index.js';
import { isRunFailure, isRunFinished } from '../api/index.js';
import { decide } from '../policy/decide.js';
import type { Policy } from '../policy/index.js';
import type { BatchRecord, ItemRecord, TransitionStore } from '../store/index.js';
import type { RunnerEvent } from './events.js';
import { idempotencyKey } from '../store/keys.js';
import { toSnapshot } from './run-snapshot.js';

/** What one item's driver needs. */
export interface DriveContext {
  store: TransitionStore;
  client: ServiceClient;
  batch: BatchRecord;
  policy: Policy | null;
  follow: 'sse' | 'poll';
  signal: AbortSignal;
  emit: (e: RunnerEvent) => void;
  /** Called after each admission the service accepted (feeds the adaptive cap). */
  admitted: () => void;
  /**
   * Called once when the item's last run has finished at the service, before its outcome
   * is recorded: the slot is free, and the scheduler may claim the next item at once.
   */
  release: () => void;
  /** A run taken over is being read again: new claims wait (see StepContext.rereading). */
  rereading: () => void;
  /** It is still going and is followed now (its drive's end ends the wait otherwise). */
  reread: () => void;
  /** Judges an item that completed and records its verdicts; never throws, never fails the item. */
  scoreCompleted?: ((item: ItemRecord) => Promise<void>) | undefined;
}

/**
 * Puts bookkeeping behind the requests of a burst: completions that arrived together each
 * admit their successor before any of them records its outcome, so the k-th admission of
 * a burst waits for k admissions, not for k of everything. Two turns of the check phase:
 * undici writes a request on a reused keep-alive socket from a setImmediate of its own
 * (it first lets the poll phase see whether the server closed the socket), and that must
 * come before, not after, the bookkeeping of every completion in the burst.
 */
const yieldToIo = (): Promise<void> =>
  (nextTurn ??= new Promise((resolve) =>
    setImmediate(() => {
      nextTurn = null;
      setImmediate(resolve);
    }),
  ));
/** The wait of {@link yieldToIo} that the transitions of this turn share (two immediates for a burst, not two each). */
let nextTurn: Promise<void> | null = null;

/**
 * Reads a run taken over at the service: the run when it ended while nobody followed it,
 * else null (it is still going, and is followed). Until it is found going, or the item's
 * drive ends with its outcome recorded, it counts as read again: new items wait.
 */
async function readTakenOver(ctx: DriveContext, runId: string): Promise<Run | null> {
  ctx.rereading();
  const run = await ctx.client.getRun(runId, { signal: ctx.signal });
  if (isRunFinished(run)) return run;
  ctx.reread();
  return null;
}

/**
 * Drives one item through the state machine until it is finished, held, or a request
 * fails. Each step writes its outcome in one transaction before the next request, and
 * a key is stored before the request that carries it, so a kill at any point resumes.
 * Errors propagate to the scheduler, which classifies them. The item arrives claimed
 * (`submitting` with its key stored, or taken over in any active state).
 */
export async function driveItem(ctx: DriveContext, start: ItemRecord): Promise<ItemRecord> {
  let item = start;
  const { store, client, signal } = ctx;
  /** Whether the run being followed was started by this driver (else it was taken over: a resume). */
  let startedHere = false;
  for (;;) {
    signal.throwIfAborted();
    switch (item.state) {
      case 'submitting': {
        // The claim stored the key before this request; a takeover re-posts with it.
        const key = item.pendingKey ?? idempotencyKey(item.batchId, item.id, item.step, item.attempt);
        const body = item.threadId ? { input: item.question, thread_id: item.threadId } : { input: item.question };
        const run = await client.createRun(body, { idempotencyKey: key, signal });
        // The run is going at the service and its key is stored: recording it can wait for
        // completions that arrived meanwhile (they admit runs), never for a timer.
        await yieldToIo();
        item = await store.markAdmitted(item, {
          id: run.id,
          status: run.status,
          threadId: run.thread_id ?? null,
          step: item.step,
          parentRunId: null,
          idempotencyKey: key,
        });
        startedHere = true;
        ctx.admitted();
        ctx.emit({ type: 'item', id: item.id, state: 'running', runId: run.id });
        break;
      }
      case 'waiting': {
        if (!item.runId || !item.pendingKey || !item.pendingAnswer)
          throw new Error(`item ${item.id} is waiting without a run, key or answer`);
        const parent = item.runId;
        const run = await client.respond(parent, item.pendingAnswer as never, { idempotencyKey: item.pendingKey, signal });
        item = await store.markAdmitted(item, {
          id: run.id,
          status: run.status,
          threadId: run.thread_id ?? null,
          step: item.step,
          parentRunId: parent,
          idempotencyKey: item.pendingKey,
        });
        startedHere = true;
        ctx.emit({ type: 'item', id: item.id, state: 'running', runId: run.id, detail: 'answered' });
        break;
      }
      case 'running': {
        if (!item.runId) throw new Error(`item ${item.id} is running without a run id`);
        // A run taken over may have ended while no worker followed it: read it before following.
        const ended = startedHere ? null : await readTakenOver(ctx, item.runId);
        const run = ended ?? (await client.followRun(item.runId, { mode: ctx.follow, signal }));
        // Ended before this look: when it ended is known only from the service's own times.
        const snap = toSnapshot(run, ended !== null);
        startedHere = true;
        if (run.status === 'requires_action' && snap.requiredAction) {
          const action = snap.requiredAction;
          const nextKey = idempotencyKey(item.batchId, item.id, item.step + 1, item.attempt);
          const paused = await store.markPaused(item, snap, (approvedCost) => {
            const d = decide(ctx.policy, action, { approvedCost });
            return d.kind === 'answer'
              ? {
                  kind: 'answer',
                  nextKey,
                  decision: {
                    runId: run.id,
                    tool: action.tool,
                    input: action.input,
                    answer: d.answer,
                    by: 'policy',
                    reason: d.reason,
                    cost: d.cost,
                  },
                }
              : { kind: 'hold', reason: d.reason };
          });
          const outcome = paused.outcome;
          item = paused.item;
          ctx.emit({
            type: 'decision',
            id: item.id,
            tool: action.tool,
            by: 'policy',
            answer: outcome.kind === 'answer' ? outcome.decision.answer : null,
            reason: outcome.kind === 'answer' ? (outcome.decision.reason ?? '') : outcome.reason,
          });
          ctx.emit({ type: 'item', id: item.id, state: outcome.kind === 'answer' ? 'waiting' : 'held', runId: run.id });
        } else {
          // A run cancelled at the service (resq cancel) ends its item as cancelled.
          const state = run.status === 'cancelled' ? 'cancelled' : isRunFailure(run.status) ? 'failed' : 'completed';
          // The next claim may go ahead before this outcome is recorded; a crash in between
          // re-attaches this item (still `running`, its run id stored) and reads the run again.
          ctx.release();
          // The freed slot's claim goes first (the next request before this bookkeeping).
          await yieldToIo();
          item = await store.markFinished(item, snap, state);
          ctx.emit({ type: 'item', id: item.id, state, runId: run.id, detail: run.status });
          // Judged once its completion is durable; a scorer's failure is its unscored verdict.
          if (state === 'completed') await ctx.scoreCompleted?.(item);
        }
        break;
      }
      default:
        return item;
    }
  }
}
