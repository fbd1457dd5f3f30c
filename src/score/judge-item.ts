import { type Clock, isoNow, systemClock } from '../clock.js';
import { ResqError } from '../errors.js';
import type { Store } from '../store/port.js';
import type { ItemRecord } from '../store/types.js';
import { judgeWithCommand } from './command-scorer.js';
import { judgedBy, type ScoreInput, unscored, verdictOf } from './judgement.js';
import { judgeLocally } from './local-scorers.js';
import type { ScorerSpec, Verdict } from './types.js';

/** How an item is judged: by whom its files and the agent judge's runs are read, and when. */
export interface JudgeOptions {
  store: Store;
  batchId: string;
  /** Time of the verdicts. @default the system clock */
  clock?: Clock;
  /**
   * A resq error of a scorer (an agent judge that cannot judge) is thrown, not recorded as the
   * item's unscored verdict: `resq score` stops on it, a worker records it and goes on.
   * @default false
   */
  strict?: boolean;
  signal?: AbortSignal;
}

/** A completed item as the scorers see it, its files read when a `files` scorer asks for them. */
export async function scoreInputOf(item: ItemRecord, specs: readonly ScorerSpec[], o: Pick<JudgeOptions, 'store' | 'batchId'>): Promise<ScoreInput> {
  const input: ScoreInput = { id: item.id, question: item.question, expected: item.expected ?? null, text: item.text };
  if (specs.some((s) => s.kind === 'files')) input.files = (await o.store.filesForItem(o.batchId, item.id)).map((f) => ({ name: f.name, role: f.role }));
  return input;
}

/**
 * Judges one completed item by each scorer: the local ones here, a `command` scorer by its
 * program (the caller gives only scorers whose file its own command line named), an `agent`
 * scorer not here (its judge batch judges it). A scorer that fails leaves the item unscored with the reason; it
 * never fails the item. Records nothing (the caller does).
 */
export async function judgeItem(item: ItemRecord, specs: readonly ScorerSpec[], o: JudgeOptions): Promise<Verdict[]> {
  const clock = o.clock ?? systemClock;
  const input = await scoreInputOf(item, specs, o);
  const out: Verdict[] = [];
  for (const spec of specs) {
    try {
      // An agent scorer judges through its judge batch (agent-judging.ts), never one item at a time here.
      if (spec.kind === 'agent') continue;
      const j = spec.kind === 'command' ? await judgeWithCommand(spec, input, o.signal) : judgeLocally(spec, input);
      out.push(verdictOf(spec, j, isoNow(clock), judgedBy(spec)));
    } catch (e) {
      if (o.strict && e instanceof ResqError) throw e;
      out.push(verdictOf(spec, unscored(`the scorer failed: ${e instanceof Error ? e.message : String(e)}`), isoNow(clock), judgedBy(spec)));
    }
  }
  return out;
}
