import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);

// src/score/stats.ts
function wilson(passed, n, z = 1.96) {
  if (!(n > 0)) return null;
  const p = passed / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = z / denom * Math.sqrt(p * (1 - p) / n + z2 / (4 * n * n));
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}
function mcnemarExact(b, c) {
  const n = b + c;
  if (n <= 0) return 1;
  const k = Math.min(b, c);
  const ln2n = n * Math.LN2;
  let logTerm = -ln2n;
  let logSum = logTerm;
  for (let i = 0; i < k; i++) {
    logTerm += Math.log(n - i) - Math.log(i + 1);
    logSum = logAddExp(logSum, logTerm);
  }
  return Math.min(1, 2 * Math.exp(logSum));
}
function logAddExp(a, b) {
  const hi = Math.max(a, b);
  return hi + Math.log(Math.exp(a - hi) + Math.exp(b - hi));
}

export {
  wilson,
  mcnemarExact
};
//# sourceMappingURL=chunk-EL7BER4H.mjs.map
