import { scorersShown } from '../read/score-rates.js';
import type { BatchRecord, ScoreStore } from '../store/index.js';
import type { VerdictFilter } from '../store/item-page-shapes.js';

/** The verdict choices of the items filter, in the order the page offers them. */
export const VERDICTS = ['passed', 'failed', 'unscored'] as const;

/**
 * The store's verdict filter of an items query (`scorer` and `verdict` together), the scorer
 * named by its name among those the batch shows (see {@link scorersShown}); or why not, in one
 * line naming the scorers there are. Also the names the filter form offers.
 */
export async function verdictFilterOf(
  store: Pick<ScoreStore, 'scorersJudged'>,
  batch: Pick<BatchRecord, 'id' | 'settings'>,
  v: { scorer?: string | undefined; verdict?: VerdictFilter['is'] | undefined },
): Promise<{ ok: true; filter: VerdictFilter | undefined; scorers: string[] } | { ok: false; error: string; scorers: string[] }> {
  const refs = await scorersShown(store, batch);
  const scorers = [...new Set(refs.map((r) => r.name))];
  if (v.scorer === undefined && v.verdict === undefined) return { ok: true, filter: undefined, scorers };
  if (v.scorer === undefined || v.verdict === undefined) return { ok: false, error: 'query: scorer and verdict go together (scorer=NAME&verdict=passed|failed|unscored)', scorers };
  const ref = refs.find((r) => r.name === v.scorer);
  if (!ref) return { ok: false, error: `query: scorer: no scorer "${v.scorer}" judges this batch (${scorers.length ? `scorers: ${scorers.join(', ')}` : 'it has none'})`, scorers };
  return { ok: true, filter: { scorer: ref.name, version: ref.version, is: v.verdict }, scorers };
}
