import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The order test files start in (vitest.config.ts): the longest first, so the last minutes are
 * not one long file running alone. vitest orders so itself by the times of the last run, kept
 * in node_modules/.vite; a fresh clone has none, and vitest then starts the largest files
 * first, which says little of how long they take (the package test, 100 s, came 30th). So the
 * times of a whole run are kept with the tests (file-times.json, written by
 * `node --import tsx test/support/update-file-times.ts <vitest JSON report>`), and used where vitest has
 * no time of its own. A file in neither (new since) counts as short.
 */

/** Seconds per test file, by path from the repository root. */
export type FileTimes = Record<string, number>;

/** A vitest JSON report's files: path and when each started and ended (ms). */
interface Report {
  testResults: { name: string; startTime: number; endTime: number }[];
}

/** Each file's time in a vitest JSON report, in seconds to a tenth, longest first, paths from `root`. */
export function timesFromReport(report: Report, root: string): FileTimes {
  const times = report.testResults.map((f) => [relative(root, f.name), Math.round((f.endTime - f.startTime) / 100) / 10] as const);
  return Object.fromEntries(times.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)));
}

/** `files` longest first by `seconds` (unknown: 0); equal times keep their order. */
export function longestFirst<T>(files: readonly T[], seconds: (f: T) => number | undefined): T[] {
  return files
    .map((f, i) => ({ f, i, s: seconds(f) ?? 0 }))
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .map((x) => x.f);
}

const KEPT = new URL('./file-times.json', import.meta.url);

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const kept = JSON.parse(readFileSync(KEPT, 'utf8')) as FileTimes;
    const cache = this.ctx.cache;
    const root = this.ctx.config.root;
    return longestFirst(await super.sort(files), (spec) => {
      const last = cache.getTestSpecificationResult(spec);
      return last ? last.duration / 1000 : kept[relative(root, spec.moduleId)];
    });
  }
}
