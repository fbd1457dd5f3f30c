import { type Clock, isoNow, systemClock } from '../clock.js';
import type { Policy } from '../policy/index.js';
import type { RunnerResult } from '../runner/batch-runner.js';
import { runBatchSession, type SessionEvent, type SessionOptions } from '../runner/session.js';
import { type BatchRecord, type ItemRecord, type Store, TERMINAL_STATES } from '../store/index.js';
import { oneLine } from '../text/printable.js';
import type { HintPlace } from '../text/command-hint.js';
import { appendJudgings, ensureJudgeBatch, judgedRefOf, judgePolicy } from './judge-batch.js';
import { readVerdict } from './judge-prompt.js';
import type { ScorerSpec, Verdict } from './types.js';

/** How far the agent judge is: judgings ended of those the companion batch holds. */
export interface JudgingProgress {
  done: number;
  total: number;
}

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

const PAGE = 1000;

/** The verdict an ended judging gives its judged item: the reply read strictly, or unscored with why its run ended so. */
export function judgingVerdict(j: ItemRecord, scoredAt: string): { item: string; verdict: Verdict } | null {
  const ref = judgedRefOf(j);
  if (!ref || !TERMINAL_STATES.includes(j.state)) return null;
  const why = j.error ? `: ${oneLine(j.error, 200)}` : '';
  const reading = j.state === 'completed' ? readVerdict(j.text) : { pass: null, score: null, reason: `the judging run ${j.state === 'error' ? 'was refused' : j.state}${why}` };
  return { item: ref.item, verdict: { scorer: ref.scorer, version: ref.version, ...reading, scoredAt, by: `agent:${j.runId ?? j.id}` } };
}

/** Records the verdict of one ended judging on the judged batch; false when it is not one. */
async function recordJudging(store: Store, parentId: string, j: ItemRecord, clock: Clock): Promise<boolean> {
  const v = judgingVerdict(j, j.finishedAt ?? isoNow(clock));
  if (!v) return false;
  await store.recordVerdicts(parentId, v.item, [v.verdict]);
  return true;
}

/** Records the verdicts of every ended judging, in seq order (a later round over an earlier): what a kill -9 left unrecorded. */
async function recordEnded(store: Store, parentId: string, judge: BatchRecord, clock: Clock): Promise<number> {
  let n = 0;
  for (let after = -1; ; ) {
    const page = await store.listItems(judge.id, { states: TERMINAL_STATES, afterSeq: after, limit: PAGE });
    if (page.length === 0) return n;
    // One turn: the SQLite adapter commits a page's verdicts together.
    for (const ok of await Promise.all(page.map((j) => recordJudging(store, parentId, j, clock)))) if (ok) n++;
    after = page[page.length - 1]!.seq;
  }
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
  let appended = 0;
  for (const spec of o.scorers.filter((s) => s.kind === 'agent')) {
    const ref = { name: spec.name, version: spec.version };
    for (let after = -1; ; ) {
      o.signal?.throwIfAborted();
      const page = await store.itemsToScore(parent.id, ref, { rescore: o.rescore ?? false, afterSeq: after, limit: PAGE });
      if (page.length === 0) break;
      appended += await appendJudgings(store, judge, spec, page, round);
      after = page[page.length - 1]!.seq;
    }
  }
  judge = (await store.findBatch(judge.id)) ?? judge;
  // Whatever ended before a crash is recorded first.
  let recorded = await recordEnded(store, parent.id, judge, clock);
  let done = 0;
  const counts = await store.itemCounts(judge.id);
  for (const s of TERMINAL_STATES) done += counts[s];
  o.onProgress?.({ done, total: judge.totalItems });
  const policy = judgePolicy((parent.policy as Policy | null) ?? null, await store.approvedCost(parent.id));
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
