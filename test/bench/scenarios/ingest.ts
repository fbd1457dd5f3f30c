// Scenario 4: `resq run --dry-run` on generated CSV and JSONL question sets of 1,000,000
// rows (id, question, one meta column): rows per second and peak RSS of the whole CLI
// process, against the floor of reading the same file with the bare parser. Beside it,
// 1,000,000 rows of model inputs (id, three typed inputs, one meta column) streamed
// through the same reader with the model-input schema, as `resq models batch` reads them.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HEAP_FLAGS } from '../../../bin/heap-flags.js';
import { benchArgs } from '../lib/args.js';
import { runCli } from '../lib/cli-process.js';
import { writeLargeModelInputs, writeLargeSet } from '../lib/questions.js';
import { emitRows, fmt, row, type BenchRow } from '../lib/report.js';
import { startupCost } from '../lib/workload.js';

const FLOOR = fileURLToPath(new URL('../lib/floor-read.ts', import.meta.url));
const MODEL_READ = fileURLToPath(new URL('../lib/model-input-read.ts', import.meta.url));
const args = benchArgs();
const n = args.quick ? 200_000 : 1_000_000;
const MiB = 2 ** 20;
const rows: BenchRow[] = [];
const dir = mkdtempSync(join(tmpdir(), 'resq-bench-ingest-'));
try {
  const startup = await startupCost(dir);
  for (const format of ['csv', 'jsonl'] as const) {
    const name = `ingest ${n / 1e6}M rows ${format.toUpperCase()}`;
    const file = join(dir, `questions.${format}`);
    await writeLargeSet(file, n, format);
    const floor = await runCli({ script: FLOOR, args: [file, format] });
    if (floor.events[0]?.records !== (format === 'csv' ? n + 1 : n)) throw new Error(`floor read ${JSON.stringify(floor.events[0])} records`);
    const r = await runCli({
      args: ['run', file, '--dry-run', '--db', join(dir, `${format}.db`), '--json'],
      nodeFlags: args.has('cpu-prof') ? ['--cpu-prof', `--cpu-prof-dir=${args.get('cpu-prof-dir', dir)}`] : [],
    });
    const items = r.events.find((e) => e.type === 'dry-run')?.items;
    if (r.code !== 0 || items !== n) throw new Error(`resq exited ${r.code} with ${items} items: ${r.stderr.slice(-1000)}`);
    const rate = n / (r.wallMs / 1000);
    const floorRate = n / (floor.wallMs / 1000);
    const rss = r.maxRssBytes / MiB;
    rows.push(
      row(name, 'rows/s, whole CLI process', fmt(rate, 0), `bare parser ${fmt(floorRate, 0)}/s`, rate / floorRate, '>= 250000', rate >= 250_000),
      row(name, 'rows/s, startup excluded', fmt(n / ((r.wallMs - startup.wallMs) / 1000), 0), `a 1-row dry run takes ${fmt(startup.wallMs / 1000, 2, 's')}`),
      row(name, 'wall', fmt(r.wallMs / 1000, 2, 's'), `bare parser ${fmt(floor.wallMs / 1000, 2, 's')}`, floor.wallMs / r.wallMs),
      row(name, 'peak RSS', fmt(rss, 0, 'MiB'), `bare parser ${fmt(floor.maxRssBytes / MiB, 0, 'MiB')}`, floor.maxRssBytes / r.maxRssBytes, '<= 200 MiB', rss <= 200),
      row(name, 'file size', fmt(statSync(file).size / MiB, 0, 'MiB')),
    );
    rmSync(file);
    rmSync(join(dir, `${format}.db`), { force: true });
  }
  for (const format of ['csv', 'jsonl'] as const) {
    const name = `ingest ${n / 1e6}M model inputs ${format.toUpperCase()}`;
    const file = join(dir, `inputs.${format}`);
    await writeLargeModelInputs(file, n, format);
    const floor = await runCli({ script: FLOOR, args: [file, format] });
    // The same heap flags as the CLI, which this process stands in for.
    const r = await runCli({ script: MODEL_READ, args: [file], nodeFlags: [...HEAP_FLAGS] });
    const got = r.events.find((e) => e.type === 'model-inputs');
    if (r.code !== 0 || got?.rows !== n || got.problems !== 0) throw new Error(`model-input read exited ${r.code} with ${JSON.stringify(got)}: ${r.stderr.slice(-1000)}`);
    const rate = n / (r.wallMs / 1000);
    const floorRate = n / (floor.wallMs / 1000);
    const rss = r.maxRssBytes / MiB;
    rows.push(
      row(name, 'rows/s, whole process', fmt(rate, 0), `bare parser ${fmt(floorRate, 0)}/s`, rate / floorRate, '>= 250000', rate >= 250_000),
      row(name, 'peak RSS', fmt(rss, 0, 'MiB'), `bare parser ${fmt(floor.maxRssBytes / MiB, 0, 'MiB')}`, floor.maxRssBytes / r.maxRssBytes, '<= 200 MiB', rss <= 200),
      row(name, 'file size', fmt(statSync(file).size / MiB, 0, 'MiB')),
    );
    rmSync(file);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
emitRows(rows);
