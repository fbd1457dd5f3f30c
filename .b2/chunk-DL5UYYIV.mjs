import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  wilson
} from "./chunk-EL7BER4H.mjs";

// src/read/score-rates.ts
async function scorersShown(store, batch) {
  const named = batch.settings.scorers;
  if (named && named.length > 0) return named.map((s) => ({ name: s.name, version: s.version }));
  return store.scorersJudged(batch.id);
}
function scoreRateOf(t) {
  const judged = t.passed + t.failed;
  const ci = wilson(t.passed, judged);
  return { name: t.scorer, version: t.version, passed: t.passed, failed: t.failed, unscored: t.unscored, passRate: judged > 0 ? t.passed / judged : null, low: ci?.low ?? null, high: ci?.high ?? null };
}
async function readScoreRates(store, batch) {
  const refs = await scorersShown(store, batch);
  if (refs.length === 0) return [];
  return (await store.scoreTotals(batch.id, refs)).map(scoreRateOf);
}
function rateWords(r) {
  if (r.passRate === null || r.low === null || r.high === null) return "no verdict yet";
  const pct = (x) => `${(x * 100).toFixed(1)}%`;
  return `${pct(r.passRate)} (95% CI ${(r.low * 100).toFixed(1)}\u2013${pct(r.high)})`;
}

export {
  scorersShown,
  readScoreRates,
  rateWords
};
//# sourceMappingURL=chunk-DL5UYYIV.mjs.map
