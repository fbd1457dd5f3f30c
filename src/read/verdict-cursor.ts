import type { ScorerRef, Verdict } from '../score/types.js';
import type { ScoreStore } from '../store/port.js';

/** A verdict as an export row and the notebook show it: pass, score and reason (all null when not judged). */
export interface ShownVerdict {
  pass: boolean | null;
  score: number | null;
  reason: string | null;
}

/**
 * Reads a batch's verdicts alongside items walked in seq order, a page of `pageSize` judged
 * items at a time: `at(seq)` gives the verdicts of the item at `seq` (asked in increasing seq),
 * dropping those of items passed over, so memory stays one page whatever the batch's size.
 */
export function verdictCursor(store: Pick<ScoreStore, 'verdictsPage'>, batchId: string, pageSize = 500): { at(seq: number): Promise<Verdict[]> } {
  let buf: { seq: number; verdicts: Verdict[] }[] = [];
  let i = 0;
  let after = -1;
  let done = false;
  return {
    async at(seq: number): Promise<Verdict[]> {
      for (;;) {
        while (i < buf.length && buf[i]!.seq < seq) i++;
        if (i < buf.length) return buf[i]!.seq === seq ? buf[i]!.verdicts : [];
        if (done) return [];
        buf = await store.verdictsPage(batchId, { afterSeq: after, limit: pageSize });
        i = 0;
        if (buf.length < pageSize) done = true;
        if (buf.length > 0) after = buf[buf.length - 1]!.seq;
      }
    },
  };
}

/** The distinct names of `refs`, in their order: one export column pair (`pass_NAME`, `score_NAME`) each. */
export function scorerNames(refs: readonly ScorerRef[]): string[] {
  return [...new Set(refs.map((r) => r.name))];
}

/**
 * An item's verdicts by scorer name, each shown scorer present (null fields when not judged);
 * of two versions of one name the one judged last counts.
 */
export function verdictsByName(refs: readonly ScorerRef[], verdicts: readonly Verdict[]): Record<string, ShownVerdict> {
  const out: Record<string, ShownVerdict> = {};
  const when: Record<string, string> = {};
  for (const name of scorerNames(refs)) out[name] = { pass: null, score: null, reason: null };
  for (const v of verdicts) {
    if (!refs.some((r) => r.name === v.scorer && r.version === v.version)) continue;
    if (when[v.scorer] !== undefined && when[v.scorer]! > v.scoredAt) continue;
    when[v.scorer] = v.scoredAt;
    out[v.scorer] = { pass: v.pass, score: v.score, reason: v.reason };
  }
  return out;
}
