import { type Clock, isoNow } from '../clock.js';
import type { RunnerResult } from '../runner/batch-runner.js';
import { type BatchRecord, type ItemRecord, type Store, TERMINAL_STATES } from '../store/index.js';
import { oneLine } from '../text/printable.js';
import { appendJudgings, judgedRefOf } from './judge-batch.js';
import { readVerdict } from './judge-prompt.js';
import type { ScorerSpec, Verdict } from './types.js';

// What the agent judge does with its companion batch's items, whoever drives the batch
// (`resq score` on its own, or a run judging as each answer completes): judgings appended for
// what lacks a verdict, and each ended judging's verdict recorded on the judged batch.

const PAGE = 1000;

/** What the agent judge did, whoever drove its companion batch. */
export interface JudgingResult {
  /** The companion batch (`<name>.judge`). */
  judge: BatchRecord;
  /** Judgings added by this process. */
  appended: number;
  /** Verdicts recorded on the judged batch. */
  recorded: number;
  /** The companion batch's run here; null when none was started. */
  run: RunnerResult | null;
  /** Judgings held for a person (its pause, by the policy's rule): `resq answer` on the companion batch. */
  held: number;
}

/** What judging has done, as it goes: judgings ended of those the companion batch holds. */
export interface JudgingProgress {
  done: number;
  total: number;
}

/** The verdict an ended judging gives its judged item: the reply read strictly, or unscored with why its run ended so. */
export function judgingVerdict(j: ItemRecord, scoredAt: string): { item: string; verdict: Verdict } | null {
  const ref = judgedRefOf(j);
  if (!ref || !TERMINAL_STATES.includes(j.state)) return null;
  const why = j.error ? `: ${oneLine(j.error, 200)}` : '';
  const reading = j.state === 'completed' ? readVerdict(j.text) : { pass: null, score: null, reason: `the judging run ${j.state === 'error' ? 'was refused' : j.state}${why}` };
  return { item: ref.item, verdict: { scorer: ref.scorer, version: ref.version, ...reading, scoredAt, by: `agent:${j.runId ?? j.id}` } };
}

/** Records the verdict of one ended judging on the judged batch; false when it is not one. */
export async function recordJudging(store: Store, parentId: string, j: ItemRecord, clock: Clock): Promise<boolean> {
  const v = judgingVerdict(j, j.finishedAt ?? isoNow(clock));
  if (!v) return false;
  await store.recordVerdicts(parentId, v.item, [v.verdict]);
  return true;
}

/** Records the verdicts of every ended judging, in seq order (a later round over an earlier): what a kill -9 left unrecorded. */
export async function recordEnded(store: Store, parentId: string, judge: BatchRecord, clock: Clock): Promise<number> {
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
 * Appends a judging for every completed item of `parent` lacking a verdict of each `agent`
 * scorer's version (all of them with `rescore`, in a round of their own); judgings the
 * companion batch has already are kept. Returns how many were new.
 */
export async function appendLacking(
  store: Store,
  parent: BatchRecord,
  judge: BatchRecord,
  scorers: readonly ScorerSpec[],
  o: { rescore: boolean; round: string | null; signal?: AbortSignal },
): Promise<number> {
  let appended = 0;
  for (const spec of scorers.filter((s) => s.kind === 'agent')) {
    const ref = { name: spec.name, version: spec.version };
    for (let after = -1; ; ) {
      o.signal?.throwIfAborted();
      const page = await store.itemsToScore(parent.id, ref, { rescore: o.rescore, afterSeq: after, limit: PAGE });
      if (page.length === 0) break;
      appended += await appendJudgings(store, judge, spec, page, o.round);
      after = page[page.length - 1]!.seq;
    }
  }
  return appended;
}

/**
 * A companion batch's judgings as they end, for whoever drives it: counted for progress, and
 * each one's verdict recorded on the judged batch. Made once what a kill -9 left unrecorded is
 * recorded ({@link startRecorder}).
 */
export class JudgingRecorder {
  readonly #store: Store;
  readonly #parentId: string;
  readonly #judge: BatchRecord;
  readonly #clock: Clock;
  readonly #pending: Promise<unknown>[] = [];
  /** Judgings ended, of {@link total}. */
  done: number;
  total: number;
  /** Verdicts recorded on the judged batch. */
  recorded: number;

  constructor(store: Store, parentId: string, judge: BatchRecord, clock: Clock, start: { done: number; recorded: number }) {
    this.#store = store;
    this.#parentId = parentId;
    this.#judge = judge;
    this.#clock = clock;
    this.done = start.done;
    this.total = judge.totalItems;
    this.recorded = start.recorded;
  }

  get progress(): JudgingProgress {
    return { done: this.done, total: this.total };
  }

  /** A judging of the companion batch ended (this process's runner said so): its verdict is recorded. */
  ended(itemId: string): void {
    this.done++;
    this.#pending.push(
      this.#store.getItem(this.#judge.id, itemId).then(async (j) => {
        if (j && (await recordJudging(this.#store, this.#parentId, j, this.#clock))) this.recorded++;
      }),
    );
  }

  /** Every verdict asked for is recorded, and those of judgings another worker ended meanwhile (recording one again changes nothing). */
  async settle(): Promise<void> {
    await Promise.all(this.#pending);
    await recordEnded(this.#store, this.#parentId, this.#judge, this.#clock);
  }
}

/** Records what ended before (a kill -9 left unrecorded), then counts from there. */
export async function startRecorder(store: Store, parentId: string, judge: BatchRecord, clock: Clock): Promise<JudgingRecorder> {
  const recorded = await recordEnded(store, parentId, judge, clock);
  const counts = await store.itemCounts(judge.id);
  let done = 0;
  for (const s of TERMINAL_STATES) done += counts[s];
  return new JudgingRecorder(store, parentId, judge, clock, { done, recorded });
}
