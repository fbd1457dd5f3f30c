import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** How many of the longest files start first, side by side, as vitest's own order has them. */
const HEAD = 3;

/**
 * The order files start in (vitest.config.ts): vitest's own (the longest first by the last
 * run's times, or the largest first on a fresh clone), with its heavier half spread over the
 * run instead of all at its start: after the first few, one file of the heavier half for every
 * two of the lighter. Longest-first alone crowds the files that spend CPU (child processes,
 * browsers, big batches) into the first minutes and leaves the last ones to files that mostly
 * wait (simulated run times, leases), two cores half idle.
 */
export function interleave<T>(ordered: readonly T[], head = HEAD): T[] {
  const first = ordered.slice(0, head);
  const rest = ordered.slice(head);
  const heavy = rest.slice(0, Math.ceil(rest.length / 3));
  const light = rest.slice(heavy.length);
  const out = [...first];
  while (heavy.length > 0 || light.length > 0) {
    if (heavy.length > 0) out.push(heavy.shift()!);
    out.push(...light.splice(0, 2));
  }
  return out;
}

export default class InterleavedSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return interleave(await super.sort(files));
  }
}
