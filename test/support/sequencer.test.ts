import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './cli.js';
import { longestFirst, timesFromReport, type FileTimes } from './sequencer.js';

describe('the order test files start in', () => {
  it('longest first, a file with no time counted as short, equal times in the order given', () => {
    const t: Record<string, number> = { a: 2, b: 30, d: 2, e: 0.5 };
    expect(longestFirst(['a', 'b', 'c', 'd', 'e'], (f) => t[f])).toEqual(['b', 'a', 'd', 'e', 'c']);
  });

  it("reads each file's time from a vitest JSON report: seconds to a tenth, paths from the root, longest first", () => {
    const report = {
      testResults: [
        { name: '/r/test/a.test.ts', startTime: 1000, endTime: 3449 },
        { name: '/r/test/sub/b.test.ts', startTime: 0, endTime: 60_050 },
      ],
    };
    expect(Object.entries(timesFromReport(report, '/r'))).toEqual([
      ['test/sub/b.test.ts', 60.1],
      ['test/a.test.ts', 2.4],
    ]);
  });

  it('keeps a time for files of the suite as it is: the slow ones among them, every path one that exists', () => {
    const kept = JSON.parse(readFileSync(join(ROOT, 'test/support/file-times.json'), 'utf8')) as FileTimes;
    const paths = Object.keys(kept);
    expect(paths.length).toBeGreaterThan(300);
    for (const slow of ['test/package/install.test.ts', 'test/suites/partition.test.ts', 'test/report/write-report.test.ts']) expect(kept[slow], slow).toBeGreaterThan(20);
    expect(paths.filter((p) => !existsSync(join(ROOT, p)))).toEqual([]);
  });
});
