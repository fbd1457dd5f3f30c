import type { ServiceClient } from '../api/index.js';
import { type Clock, systemClock } from '../clock.js';
import type { Policy } from '../policy/index.js';
import { BatchRunner, type RunnerResult } from '../runner/batch-runner.js';
import type { RunnerEvent } from '../runner/events.js';
import type { SharedSlots } from '../runner/shared-slots.js';
import { type BatchRecord, type ItemRecord, type Store, TERMINAL_STATES } from '../store/index.js';
import { appendJudgings, ensureJudgeBatch, judgePolicy } from './judge-batch.js';
import { appendLacking, type JudgingProgress, type JudgingResult, startRecorder } from './judgings.js';
import type { ScorerSpec } from './types.js';

/** What the judge beside a run reports: its progress, and its runner's warnings (named by its batch). */
export type AlongsideEvent = ({ type: 'judging'; batch: string } & JudgingProgress) | { type: 'warning'; message: string };

/** What {@link startJudgeAlongside} is given. */
export interface JudgeAlongsideOptions {
  store: Store;
  /** The batch whose answers are judged as they complete. */
  parent: BatchRecord;
  /** Its `agent` scorers (other kinds are left out). */
  scorers: readonly ScorerSpec[];
  /** The answer run's client: judging runs go to the same service. */
  client: ServiceClient;
  /** The answer run's slots: judgings and answers share one cap, judgings served first. */
  slots: SharedSlots;
  leaseMs?: number;
  retryLaterMs?: readonly number[];
  /** Stay while other workers have judgings in flight. @default true */
  wait?: boolean;
  clock?: Clock;
  /** Must not throw. */
  onEvent?: (e: AlongsideEvent) => void;
}

/** What the judge did once its run ended (its runner always ran). */
export type AlongsideResult = JudgingResult & { run: RunnerResult };

/** The agent judge beside a run: judgings made as each answer completes, run under the answers' cap. */
export interface JudgeAlongside {
  /** Appends the judgings of an item the answer run just completed (durable first); they are claimed before further answers. */
  completed(item: ItemRecord): Promise<void>;
  /** Stops admitting judgings (those in flight go on at the service; a later run picks them up). */
  stop(): void;
  /** The answers are over: judges what is left and ends (`stop`: ends now, as {@link stop}). */
  finish(stop: boolean): Promise<AlongsideResult>;
}

/**
 * Starts the agent judge beside a batch's run: its companion batch is made (or joined), a
 * judging appended for every completed item still lacking a verdict, and a runner of its own
 * started on it, sharing the answer run's slots and served first, staying idle while answers
 * go on. Each completed answer's judgings are appended as it completes; each judging's verdict
 * is recorded on the judged batch as the judging ends. Keys, leases, resume after kill -9 and
 * the budget are the companion batch's, as for any batch.
 */
export async function startJudgeAlongside(o: JudgeAlongsideOptions): Promise<JudgeAlongside> {
  const { store, parent } = o;
  const clock = o.clock ?? systemClock;
  const specs = o.scorers.filter((s) => s.kind === 'agent');
  let judge = await ensureJudgeBatch(store, parent);
  let appended = await appendLacking(store, parent, judge, specs, { rescore: false, round: null });
  judge = (await store.findBatch(judge.id)) ?? judge;
  // Whatever ended before a crash is recorded first.
  const tally = await startRecorder(store, parent.id, judge, clock);
  const progress = (): void => o.onEvent?.({ type: 'judging', batch: judge.name, ...tally.progress });
  progress();
  let answering = true;
  const onEvent = (e: RunnerEvent): void => {
    if (e.type === 'item' && TERMINAL_STATES.includes(e.state)) {
      tally.ended(e.id);
      progress();
    } else if (e.type === 'warning') o.onEvent?.({ type: 'warning', message: `${judge.name}: ${e.message}` });
  };
  const runner = new BatchRunner({
    store,
    client: o.client,
    batch: judge,
    policy: judgePolicy((parent.policy as Policy | null) ?? null),
    slots: o.slots,
    slotsFirst: true,
    stayWhile: () => answering,
    wait: o.wait ?? true,
    ...(o.leaseMs !== undefined ? { leaseMs: o.leaseMs } : {}),
    ...(o.retryLaterMs !== undefined ? { retryLaterMs: o.retryLaterMs } : {}),
    clock,
    onEvent,
  });
  // Kept settled: a runner that fails early is reported by finish(), not as an unhandled rejection.
  const running = runner.run().then(
    (run) => ({ run, error: null as unknown }),
    (error: unknown) => ({ run: null, error }),
  );
  return {
    completed: async (item) => {
      let n = 0;
      for (const spec of specs) n += await appendJudgings(store, judge, spec, [item], null);
      if (n === 0) return;
      appended += n;
      tally.total += n;
      runner.more(n);
      progress();
    },
    stop: () => runner.stop(),
    finish: async (stop) => {
      answering = false;
      if (stop) runner.stop();
      else runner.wake();
      const r = await running;
      await tally.settle();
      if (r.error !== null) throw r.error;
      judge = (await store.findBatch(judge.id)) ?? judge;
      return { judge, appended, recorded: tally.recorded, run: r.run!, held: (await store.itemCounts(judge.id)).held };
    },
  };
}
