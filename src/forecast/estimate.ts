// The forecast's arithmetic: pure functions of a reference batch's figures, each estimate
// with its spread. No store, no clock, no randomness: the same figures give the same forecast.

/** z of the 90th percentile of the normal distribution: p10–p90 is the mean ± Z90 standard deviations. */
export const Z90 = 1.2815515655446004;

/** The q-th quantile (0..1) of ascending `sorted`, interpolated between ranks (R's type 7, numpy's default); null when empty. */
export function quantile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.ceil(h);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

/** A sample in a few figures. */
export interface Summary {
  n: number;
  mean: number;
  /** Sample standard deviation (n − 1); 0 for fewer than two values. */
  sd: number;
  p10: number;
  median: number;
  p90: number;
  min: number;
  max: number;
}

/** The figures of a sample, or null when it is empty. */
export function summarize(values: readonly number[]): Summary | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  const mean = sorted.reduce((s, v) => s + v, 0) / n;
  const sd = n < 2 ? 0 : Math.sqrt(sorted.reduce((s, v) => s + (v - mean) ** 2, 0) / (n - 1));
  return { n, mean, sd, p10: quantile(sorted, 0.1)!, median: quantile(sorted, 0.5)!, p90: quantile(sorted, 0.9)!, min: sorted[0]!, max: sorted[n - 1]! };
}

/** An estimate and its spread (p10–p90). */
export interface Spread {
  estimate: number;
  low: number;
  high: number;
}

/**
 * The standard deviation of a sum of `count` new draws predicted from sample `s`: the draws'
 * own spread (count × sd²) plus that of the sample's mean, itself an estimate (count² × sd² / n).
 */
export function sumSd(s: Summary, count: number): number {
  return s.sd * Math.sqrt(count + (count * count) / s.n);
}

/**
 * The sum of `count` draws from a sample like `s`: count × mean, with p10–p90 from the
 * normal approximation of a sum (count × mean ± Z90 × {@link sumSd}), never below count × min
 * nor above count × max.
 */
export function sumOf(s: Summary, count: number): Spread {
  const estimate = count * s.mean;
  const half = Z90 * sumSd(s, count);
  return { estimate, low: Math.max(count * s.min, estimate - half), high: Math.min(count * s.max, estimate + half) };
}

/** The standard normal distribution function (Abramowitz–Stegun 7.1.26; error under 1.5e-7). */
export function normalCdf(x: number): number {
  const t = 1 / (1 + (0.3275911 * Math.abs(x)) / Math.SQRT2);
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-(x * x) / 2);
  return x >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

/** What a forecast is made from: the reference batch's figures, one value per question that ran. */
export interface ForecastInput {
  /** How many questions the forecast is for. */
  questions: number;
  /** Cost approved per question. */
  costs: readonly number[];
  /** Pauses the policy would hold, per question (replayed on the reference's pauses). */
  holds: readonly number[];
  /** Seconds the service worked on each question (its runs, not the time it waited for a person). */
  seconds: readonly number[];
  /** Most runs in flight at once. */
  cap: number;
  /** The batch budget the total is held against, or null. */
  budget: number | null;
  /** Cost the batch already spent (approved): the total starts from it; default 0 (a new batch). */
  spent?: number;
}

/** A forecast: every figure an estimate with its spread; null where the reference has nothing to go on. */
export interface Forecast {
  questions: number;
  /** Questions of the reference it was made from. */
  sample: number;
  costPerQuestion: { median: number; p90: number; mean: number } | null;
  totalCost: Spread | null;
  /** What the batch already spent plus `totalCost`: the figure held against the budget. */
  batchCost: Spread | null;
  budget: { budget: number; share: number; lowShare: number; highShare: number; chanceOver: number } | null;
  held: Spread & { perQuestion: number } | null;
  /** Seconds, as if the questions ran in ⌈questions / cap⌉ waves of `cap`, each as long as a question takes (median, p10–p90). */
  wallSeconds: (Spread & { waves: number; perQuestion: Summary }) | null;
}

/** The forecast of {@link ForecastInput}. Pure. */
export function forecast(i: ForecastInput): Forecast {
  const cost = summarize(i.costs);
  const holds = summarize(i.holds);
  const secs = summarize(i.seconds);
  const spent = i.spent ?? 0;
  const totalCost = cost ? sumOf(cost, i.questions) : null;
  const batchCost = totalCost ? { estimate: spent + totalCost.estimate, low: spent + totalCost.low, high: spent + totalCost.high } : null;
  let budget: Forecast['budget'] = null;
  if (batchCost && cost && i.budget !== null && i.budget > 0) {
    const sd = sumSd(cost, i.questions);
    // What is spent counts: a batch at its budget goes over with any cost still to come.
    const chanceOver = sd === 0 ? (batchCost.estimate > i.budget ? 1 : 0) : 1 - normalCdf((i.budget - batchCost.estimate) / sd);
    budget = { budget: i.budget, share: batchCost.estimate / i.budget, lowShare: batchCost.low / i.budget, highShare: batchCost.high / i.budget, chanceOver };
  }
  const waves = Math.ceil(i.questions / Math.max(1, i.cap));
  return {
    questions: i.questions,
    sample: i.costs.length,
    costPerQuestion: cost ? { median: cost.median, p90: cost.p90, mean: cost.mean } : null,
    totalCost,
    batchCost,
    budget,
    held: holds ? { ...sumOf(holds, i.questions), perQuestion: holds.mean } : null,
    wallSeconds: secs ? { estimate: waves * secs.median, low: waves * secs.p10, high: waves * secs.p90, waves, perQuestion: secs } : null,
  };
}
