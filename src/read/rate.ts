import type { RecentFinishes } from '../store/port.js';

/** How many of the latest ended items the rate is measured over. */
export const RATE_WINDOW = 100;

/** Milliseconds inside [from, to] covered by at least one of the intervals. */
export function coveredMs(intervals: readonly { start: number; end: number }[], from: number, to: number): number {
  const cut = intervals
    .map((i) => ({ start: Math.max(i.start, from), end: Math.min(i.end, to) }))
    .filter((i) => i.end > i.start)
    .sort((a, b) => a.start - b.start);
  let total = 0;
  let start = -Infinity;
  let end = -Infinity;
  for (const i of cut) {
    if (i.start > end) {
      if (end > start) total += end - start;
      start = i.start;
      end = i.end;
    } else if (i.end > end) end = i.end;
  }
  if (end > start) total += end - start;
  return total;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length === 0 ? 0 : s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/**
 * Items ended per second over the time runs were running. The window runs from the oldest to
 * the newest of the latest ended items; the ends after the first are counted over the part of
 * the window when at least one of their runs ran, so time when nothing ran (a batch stopped
 * and resumed later, workers waiting for a person) is not counted. A window shorter than a
 * typical run (items that ended together) says little: then the items are counted over all
 * the time their runs ran. Null before two ended, or when no run time is known.
 */
export function ratePerSecond(recent: RecentFinishes): number | null {
  const ends = recent.finishedAt.map((t) => Date.parse(t));
  if (ends.length < 2) return null;
  const runs = recent.runs.map((r) => ({ start: Date.parse(r.createdAt), end: Date.parse(r.finishedAt) }));
  const from = Math.min(...ends);
  const to = Math.max(...ends);
  const busy = coveredMs(runs, from, to);
  if (busy > 0 && busy >= median(runs.map((r) => r.end - r.start))) return (ends.length - 1) / (busy / 1000);
  const all = coveredMs(runs, -Infinity, Infinity);
  return all > 0 ? ends.length / (all / 1000) : null;
}

/**
 * Seconds until `unfinished` items are done at `rate`, leaving out `waitingForPerson` of them
 * (they cannot start until a person acts): 0 when none is left; null without a rate, when no
 * live worker runs the batch (nothing will finish until one does), or when every item left
 * waits for a person (then it is not done, and no time can be said).
 */
export function etaSeconds(rate: number | null, unfinished: number, workerRunning: boolean, waitingForPerson = 0): number | null {
  if (unfinished === 0) return 0;
  const left = unfinished - waitingForPerson;
  if (left <= 0 || !workerRunning || rate === null || rate <= 0) return null;
  return Math.ceil(left / rate);
}
