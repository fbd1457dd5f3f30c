import { type Clock, systemClock } from '../clock.js';
import type { Policy } from '../policy/index.js';
import type { RunnerResult } from '../runner/batch-runner.js';
import { runBatchSession, type SessionEvent, type SessionOptions } from '../runner/session.js';
import { type BatchRecord, type ItemRecord, type Store, TERMINAL_STATES } from '../store/index.js';
import type { HintPlace } from '../text/command-hint.js';
import { ensureJudgeBatch, judgePolicy } from './judge-batch.js';
import { appendLacking, type JudgingProgress, recordEnded, recordJudging } from './judgings.js';
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
export interface AgentJudgingResult {
  /** The companion batch (`<name>.judge`). */
  judge: BatchRecord;
  /** Judgings added now. */
  appended: number;
  /** Verdicts recorded on the judged batch. */
  recorded: number;
  run: RunnerResult | null;
  /** Judgings held for a person (its pause, by the policy's rule): `resq answer` on the companion batch. */
  held: number;
}

/**
 * The service as judge: each completed item lacking a verdict of an `agent` scorer's version
 * (all with `rescore`) gets a judging in the companion batch, which then runs as any batch
 * (keys stored before each POST, resumable after kill -9, under the cap, by the judged batch's
 * policy with its budget less what that batch spent, pauses without a rule declined). Each
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
  let recorded = await recordEnded(store, parent.id, judge, clock);
  let done = 0;
  const counts = await store.itemCounts(judge.id);
  for (const s of TERMINAL_STATES) done += counts[s];
  o.onProgress?.({ done, total: judge.totalItems });
  const policy = judgePolicy((parent.policy as Policy | null) ?? null);
  const ended: Promise<unknown>[] = [];
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
        done++;
        o.onProgress?.({ done, total: judge.totalItems });
        ended.push(
          store.getItem(judge.id, e.id).then(async (j) => {
            if (j && (await recordJudging(store, parent.id, j, clock))) recorded++;
          }),
        );
      }
      // The policy given again each time is the judge's own business, not news.
      if (e.type === 'notice' && e.message.startsWith('policy:')) return;
      o.onEvent?.(e);
    },
  });
  await Promise.all(ended);
  // Judgings another worker ended meanwhile (each verdict is stamped with its judging's end: recording it again changes nothing).
  await recordEnded(store, parent.id, judge, clock);
  return { judge: session.batch, appended, recorded, run: session.run, held: session.status.counts.held };
}
