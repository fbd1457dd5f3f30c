/** A 95% (or other) confidence interval for a proportion, both ends in [0, 1]. */
export interface Interval {
  low: number;
  high: number;
}

/**
 * The Wilson score interval for `passed` successes out of `n` trials: unlike the plain
 * p ± z·√(p(1−p)/n) it stays inside [0, 1] and is not empty at 0 or n passes.
 * Null when n is 0 (nothing to estimate).
 * @param z the normal quantile; @default 1.96 (95%)
 */
export function wilson(passed: number, n: number, z = 1.96): Interval | null {
  if (!(n > 0)) return null;
  const p = passed / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z / denom) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // Rounding can leave -1e-17 at 0 passes; the interval is a proportion's.
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/**
 * Two-sided exact McNemar test on paired outcomes: `b` pairs changed one way (passed → failed),
 * `c` the other. Under "no difference" each discordant pair goes either way with chance ½, so
 * p = 2 · P(X ≤ min(b, c)) for X ~ Binomial(b + c, ½), capped at 1; 1 when no pair changed.
 * Summed in log space so it holds for hundreds of thousands of pairs.
 */
export function mcnemarExact(b: number, c: number): number {
  const n = b + c;
  if (n <= 0) return 1;
  const k = Math.min(b, c);
  const ln2n = n * Math.LN2;
  // log C(n, i) built up term by term: C(n, i+1) = C(n, i) · (n − i) / (i + 1).
  let logTerm = -ln2n;
  let logSum = logTerm;
  for (let i = 0; i < k; i++) {
    logTerm += Math.log(n - i) - Math.log(i + 1);
    logSum = logAddExp(logSum, logTerm);
  }
  return Math.min(1, 2 * Math.exp(logSum));
}

function logAddExp(a: number, b: number): number {
  const hi = Math.max(a, b);
  return hi + Math.log(Math.exp(a - hi) + Math.exp(b - hi));
}
