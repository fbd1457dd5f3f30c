/** One line of a line diff: kept (' '), only in the old text ('-'), only in the new ('+'); a changed stretch lists its old lines first. */
export interface DiffLine {
  op: ' ' | '+' | '-';
  text: string;
}

/** Above this many line pairs the diff is not searched: the old lines go, the new ones come. */
const MAX_CELLS = 4_000_000;

/**
 * A line diff of two texts by longest common subsequence (answers are tens of lines; a huge
 * pair falls back to "all removed, all added" rather than take quadratic memory).
 */
export function lineDiff(before: string, after: string): DiffLine[] {
  const a = before.split('\n');
  const b = after.split('\n');
  // Common head and tail cost nothing and shrink the table.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const out: DiffLine[] = a.slice(0, head).map((text) => ({ op: ' ', text }));
  const am = a.slice(head, a.length - tail);
  const bm = b.slice(head, b.length - tail);
  if (am.length * bm.length > MAX_CELLS) {
    out.push(...am.map((text): DiffLine => ({ op: '-', text })), ...bm.map((text): DiffLine => ({ op: '+', text })));
  } else {
    // lcs[i][j]: length of the LCS of am[i..] and bm[j..], in one flat array.
    const w = bm.length + 1;
    const lcs = new Uint32Array((am.length + 1) * w);
    for (let i = am.length - 1; i >= 0; i--)
      for (let j = bm.length - 1; j >= 0; j--)
        lcs[i * w + j] = am[i] === bm[j] ? lcs[(i + 1) * w + j + 1]! + 1 : Math.max(lcs[(i + 1) * w + j]!, lcs[i * w + j + 1]!);
    let i = 0;
    let j = 0;
    while (i < am.length || j < bm.length) {
      if (i < am.length && j < bm.length && am[i] === bm[j]) {
        out.push({ op: ' ', text: am[i]! });
        i++;
        j++;
      } else if (i < am.length && (j === bm.length || lcs[(i + 1) * w + j]! >= lcs[i * w + j + 1]!)) {
        // Where either way keeps the longest common part, the old line goes first: - before +.
        out.push({ op: '-', text: am[i++]! });
      } else {
        out.push({ op: '+', text: bm[j++]! });
      }
    }
  }
  out.push(...a.slice(a.length - tail).map((text): DiffLine => ({ op: ' ', text })));
  return out;
}
