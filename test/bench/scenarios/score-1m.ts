// Issue 40.8: 1,000,000 completed items judged by local scorers with `resq score`: at least
// 50,000 items a second on SQLite, and memory flat as the batch grows (the peak RSS of
// `resq score` on the full batch within 1.25× of its peak on a batch a quarter the size: it
// pages through the batch, it never holds it). `--size N` judges a smaller batch.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { benchArgs } from '../lib/args.js';
import { runCli } from '../lib/cli-process.js';
import { emitRows, fmt, row } from '../lib/report.js';
import { startupCost } from '../lib/workload.js';

const MiB = 2 ** 20;
const args = benchArgs();
const n = Number(args.get('size', args.quick ? '100000' : '1000000'));
const dir = mkdtempSync(join(tmpdir(), 'resq-bench-score-'));

/**
 * A batch of `size` completed items as a run leaves them (the answer text of the simulator,
 * an expected answer each), loaded through the store's own loader and finished in bulk.
 */
async function completedBatch(db: string, name: string, size: number): Promise<void> {
  const store = SqliteStore.open(db);
  try {
    const loader = await store.beginBatchLoad(
      {
        id: `${name}-id`, name, kind: 'runs', sourcePath: '/bench/q.jsonl', sourceSha256: 'bench', baseUrl: null, policy: null,
        settings: { concurrency: 8, follow: 'sse', download: { enabled: false, concurrency: 2, out: null }, pipelineFile: null, service: 'sim' },
      },
      { bulk: true },
    );
    const chunk = 10_000;
    for (let s = 0; s < size; s += chunk) {
      const k = Math.min(chunk, size - s);
      const ids = Array.from({ length: k }, (_, i) => `q${s + i}`);
      await loader.addColumns(
        {
          ids, lines: ids.map((_, i) => s + i + 2), questions: ids.map((_, i) => `Question ${s + i}: what is ${(s + i) % 1000}?`), threads: ids.map(() => null),
          metas: ids.map(() => '{}'), expecteds: ids.map((_, i) => String((s + i) % 1000)),
        },
        s,
      );
    }
    await loader.commit([]);
    store.db
      .prepare(`UPDATE items SET state = 'completed', finished_at = '2026-01-01T00:00:00.000Z', text = '## Answer' || char(10) || char(10) || 'Simulated answer to: "' || question || '".' WHERE batch_num = (SELECT num FROM batches WHERE name = ?)`)
      .run(name);
  } finally {
    await store.close();
  }
}

try {
  const idle = await startupCost(dir);
  const scorers = join(dir, 'scorers.yaml');
  // Local scorers only: the expected number mentioned, and found as the answer's number within a tolerance.
  writeFileSync(scorers, 'scorers:\n  - name: mentions\n    kind: includes\n  - name: value\n    kind: number\n    tolerance: 0.5\n');
  const db = join(dir, 'r.db');
  const quarter = Math.floor(n / 4);
  await completedBatch(db, 'quarter', quarter);
  await completedBatch(db, 'full', n);
  const small = await runCli({ args: ['score', 'quarter', '--db', db, '--scorers', scorers] });
  if (small.code !== 0) throw new Error(`resq score exited ${small.code}: ${small.stderr.slice(-2000)}`);
  const full = await runCli({ args: ['score', 'full', '--db', db, '--scorers', scorers] });
  if (full.code !== 0) throw new Error(`resq score exited ${full.code}: ${full.stderr.slice(-2000)}`);
  if (!full.stderr.includes(`judged ${2 * n} verdicts`)) throw new Error(`resq score judged other than ${2 * n}: ${full.stderr.slice(-500)}`);
  const name = `resq score N=${n}, 2 local scorers, SQLite`;
  const perS = n / (full.wallMs / 1000);
  const judged = !args.quick && n === 1_000_000;
  const growth = full.maxRssBytes / small.maxRssBytes;
  emitRows([
    row(name, 'items judged a second (each by both scorers, wall time)', fmt(perS, 0, '/s'), `${fmt(full.wallMs / 1000, 1, 's')} for ${n}`, perS / 50_000, '>= 50,000/s', judged ? perS >= 50_000 : null),
    row(name, `peak RSS: N=${n} / N=${quarter}`, `${fmt(full.maxRssBytes / MiB, 0, 'MiB')} / ${fmt(small.maxRssBytes / MiB, 0, 'MiB')}`, `idle ${fmt(idle.maxRssBytes / MiB, 0, 'MiB')}`, 1.25 / growth, 'x4 items: <= 1.25x memory', judged ? growth <= 1.25 : null),
    row(name, 'CPU per item', fmt((full.cpuMs - idle.cpuMs) / n * 1000, 1, 'µs'), `CLI ${fmt(full.cpuMs / 1000, 1, 's')} (user + system, every thread of the process)`),
  ]);
} finally {
  if (!args.has('keep')) rmSync(dir, { recursive: true, force: true });
}
