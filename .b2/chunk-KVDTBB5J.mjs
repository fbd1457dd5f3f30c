import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);

// src/text/closest-word.ts
function editDistance(a, b) {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_2, j) => i === 0 ? j : j === 0 ? i : 0));
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2][j - 2] + 1);
      d[i][j] = best;
    }
  return d[a.length][b.length];
}
function closest(word, known) {
  let best = null;
  let bestD = Infinity;
  for (const k of known) {
    const d = editDistance(word.toLowerCase(), k.toLowerCase());
    if (d < bestD) [best, bestD] = [k, d];
  }
  return best !== null && bestD <= Math.max(1, Math.min(3, Math.floor(word.length / 3))) ? best : null;
}

export {
  closest
};
//# sourceMappingURL=chunk-KVDTBB5J.mjs.map
