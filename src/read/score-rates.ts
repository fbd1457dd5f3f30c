import { wilson } from '../score/stats.js';
import type { ScorerRef, ScorerTotals } from '../score/types.js';
import type { ScoreStore } from '../store/port.js';
import type { BatchRecord } from '../store/types.js';
import type { ScoreRate } from './status-schema.js';

/**
 * The scorers a batch's windows show: those its settings name (`--score`), else every scorer
 * version with a verdict in it (a batch judged only by `resq score`).
 */
export async function scorersShown(store: Pick<ScoreStore, 'scorersJudged'>, batch: Pick<BatchRecord, 'id' | 'settings'>): Promise<ScorerRef[]> {
  const named = batch.settings.scorers;
  if (named && named.length > 0) return named.map((s) => ({ name: s.name, version: s.version }));
  return store.scorersJudged(batch.id);
}

/** A scorer's totals with its pass rate over the judged items (passed / (passed + failed)) and that rate's 95% Wilson interval; null when none was judged. */
export function scoreRateOf(t: ScorerTotals): ScoreRate {
  const judged = t.passed + t.failed;
  const ci = wilson(t.passed, judged);
  return { name: t.scorer, version: t.version, passed: t.passed, failed: t.failed, unscored: t.unscored, passRate: judged > 0 ? t.passed / judged : null, low: ci?.low ?? null, high: ci?.high ?? null };
}

/** Each shown scorer's passed, failed, unscored and pass rate with its interval (see {@link scorersShown}, {@link scoreRateOf}). */
export async function readScoreRates(store: Pick<ScoreStore, 'scorersJudged' | 'scoreTotals'>, batch: Pick<BatchRecord, 'id' | 'settings'>): Promise<ScoreRate[]> {
  const refs = await scorersShown(store, batch);
  if (refs.length === 0) return [];
  return (await store.scoreTotals(batch.id, refs)).map(scoreRateOf);
}

/** A pass rate as words: `83.3% (95% CI 64.1–93.3%)`, or `no verdict yet`. */
export function rateWords(r: Pick<ScoreRate, 'passRate' | 'low' | 'high'>): string {
  if (r.passRate === null || r.low === null || r.high === null) return 'no verdict yet';
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  return `${pct(r.passRate)} (95% CI ${(r.low * 100).toFixed(1)}–${pct(r.high)})`;
}
