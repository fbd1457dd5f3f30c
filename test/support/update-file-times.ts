// Refreshes test/support/file-times.json (the order a fresh clone's tests start in) from a
// whole run's vitest JSON report: `npm test -- --reporter=json --outputFile.json=r.json`, then
// `node --import tsx test/support/update-file-times.ts r.json`. .ci/run writes one at .tmp/vitest-report.json.
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { timesFromReport } from './sequencer.js';

const [report] = process.argv.slice(2);
if (!report) {
  process.stderr.write('usage: node --import tsx test/support/update-file-times.ts <vitest JSON report>\n');
  process.exit(2);
}
const times = timesFromReport(JSON.parse(readFileSync(report, 'utf8')), resolve(import.meta.dirname, '../..'));
writeFileSync(new URL('./file-times.json', import.meta.url), `${JSON.stringify(times, null, 1)}\n`);
process.stdout.write(`${Object.keys(times).length} files' times written to test/support/file-times.json\n`);
