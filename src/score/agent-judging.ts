import { type Clock, systemClock } from '../clock.js';
import type { Policy } from '../policy/index.js';
import { runBatchSession, type SessionEvent, type SessionOptions } from '../runner/session.js';
import { type BatchRecord, type Store, TERMINAL_STATES } from '../store/index.js';
import type { HintPlace } from '../text/command-hint.js';
import { ensureJudgeBatch, judgePolicy } from './judge-batch.js';
import { appendLacking, type JudgingProgress, type JudgingResult, startRecorder } from './judgings.js';
import type { ScorerSpec } from './types.js';

export type { JudgingProgress } from './judgings.js';

/** What {@link judgeByAgent} is asked. */
export interface AgentJudgingOptions {
  store: Store;
  /** The batch whose completed answers are judged. */
  parent: BatchRecord;
  /** Its `agent` scorers (other kinds are left out). */
  scorers: readonly ScorerSpec[];
  /** Judge every completed item again (a new round of judgings), not only those lacking a verdict. */
  rescore?: boolean;
  /** The service, as a batch session takes it. */
  service: SessionOptions['service'];
  signal?: AbortSignal;
  leaseMs?: number;
  hint?: HintPlace;
  clock?: Clock;
  /** The judging session's events (notices, the runner's); must not throw. */
  onEvent?: (e: SessionEvent) => void;
  onProgress?: (p: JudgingProgress) => void;
}

/** What {@link judgeByAgent} did. */
export type AgentJudgingResult = JudgingResult;

/**
 * The service as judge: each completed item lacking a verdict of an `agent` scorer's version
 * (all with `rescore`) gets a judging in the companion batch, which then runs as any batch
 * (keys stored before each POST, resumable after kill -9, under the cap, by the judged batch's
 * policy, spending from its budget together with it, pauses without a rule declined). Each
 * judging's verdict is recorded on the judged batch as it ends (`by: agent:<run id>`).
 */
export async function judgeByAgent(o: AgentJudgingOptions): Promise<AgentJudgingResult> {
  const { store, parent } = o;
  const clock = o.clock ?? systemClock;
  let judge = await ensureJudgeBatch(store, parent);
  const round = o.rescore ? `r${clock.now()}` : null;
  const appended = await appendLacking(store, parent, judge, o.scorers, { rescore: o.rescore ?? false, round, ...(o.signal ? { signal: o.signal } : {}) });
  judge = (await store.findBatch(judge.id)) ?? judge;
  // Whatever ended before a crash is recorded first.
  const tally = await startRecorder(store, parent.id, judge, clock);
  o.onProgress?.(tally.progress);
  const policy = judgePolicy((parent.policy as Policy | null) ?? null);
  const session = await runBatchSession({
    store,
    batch: judge,
    overrides: { policy },
    service: o.service,
    ...(o.signal ? { signal: o.signal } : {}),
    ...(o.leaseMs !== undefined ? { leaseMs: o.leaseMs } : {}),
    ...(o.hint ? { hint: o.hint } : {}),
    onEvent: (e) => {
      if (e.type === 'item' && TERMINAL_STATES.includes(e.state)) {
        tally.ended(e.id);
        o.onProgress?.(tally.progress);
      }
      // The policy given again each time is the judge's own business, not news.
      if (e.type === 'notice' && e.message.startsWith('policy:')) return;
      o.onEvent?.(e);
    },
  });
  await tally.settle();
  return { judge: session.batch, appended, recorded: tally.recorded, run: session.run, held: session.status.counts.held };
}
