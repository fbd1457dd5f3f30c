import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_MAX_BYTES, writeReport } from '../../src/report/index.js';
import { openStore, type BatchRecord, type Store } from '../../src/store/index.js';
import { tempDir } from '../support/cli.js';
import { testSettings } from '../support/in-process.js';

const NOW = Date.parse('2026-01-01T00:00:00Z');
const id = (i: number) => `item-${String(i).padStart(6, '0')}`;
const ANSWER = `## Result\n\n${'The measured value is 42, as the sources agree. '.repeat(60)}`;

/** Loads `n` items (column by column) and completes each with a long answer and two verdicts, all through the store. */
async function bigBatch(store: Store, n: number): Promise<BatchRecord> {
  const loader = await store.beginBatchLoad(
    { id: `big-${n}`, name: `big-${n}`, kind: 'runs', sourcePath: '/data/big.csv', sourceSha256: 'sha', baseUrl: null, settings: testSettings(8), policy: null },
    { bulk: true },
  );
  for (let start = 0; start < n; start += 10_000) {
    const idx = Array.from({ length: Math.min(10_000, n - start) }, (_, k) => start + k);
    await loader.addColumns(
      { ids: idx.map(id), lines: idx.map((i) => i + 2), questions: idx.map((i) => `Question ${i}: ${'what does the literature say about this compound? '.repeat(4)}`), threads: idx.map(() => null), metas: idx.map(() => '{}') },
      start,
    );
  }
  await loader.commit([]);
  const batch = (await store.findBatch(`big-${n}`))!;
  const w = (await store.registerWorker(batch.id, { host: 'h', pid: 1 }, NOW)).id;
  let after = -1;
  for (;;) {
    const c = await store.claimItems(batch.id, { workerId: w, leaseMs: 3_600_000, max: 2_000, cap: 2_000, afterSeq: after, takeOver: [] }, NOW);
    if (c.items.length === 0) break;
    after = c.cursor;
    // A claim's items side by side, as the runner drives them: their writes share the store's
    // write groups (one transaction for many), not a transaction each.
    const v = (scorer: string, pass: boolean) => ({ scorer, version: 'v1', pass, score: pass ? 1 : 0, reason: pass ? 'found it' : 'the expected value is missing from the answer', scoredAt: '2026-01-01T00:00:00.000Z', by: 'includes' });
    await Promise.all(
      c.items.map(async (it) => {
        const run = await store.markAdmitted(it, { id: `r-${it.id}`, status: 'running', threadId: null, step: 0, parentRunId: null, idempotencyKey: it.pendingKey! });
        await store.markFinished(run, { id: `r-${it.id}`, status: 'completed', threadId: null, createdAt: null, requiredAction: null, output: { text: ANSWER }, files: [] }, 'completed');
        await store.recordVerdicts(batch.id, it.id, [v('mentions', it.seq % 3 !== 0), v('exact', it.seq % 2 === 0)]);
      }),
    );
  }
  return batch;
}

describe('writeReport', () => {
  let dir: string;
  let store: Store;
  let small: BatchRecord;
  beforeAll(async () => {
    dir = tempDir('resq-report-write-');
    store = await openStore(join(dir, 'resq.db'));
    small = await bigBatch(store, 50);
  }, 60_000);
  afterAll(async () => store?.close());

  it('cuts long answers to the room left, says how many characters are left out and links to the whole answer in resq serve', async () => {
    const out = join(dir, 'tight.html');
    const r = await writeReport(store, small, { output: out, maxBytes: 60_000, serveUrl: 'http://127.0.0.1:8642', pageSize: 7 });
    const page = readFileSync(out, 'utf8');
    expect(r).toEqual({ path: out, bytes: Buffer.byteLength(page), items: 50 });
    expect(r.bytes).toBeLessThanOrEqual(60_000);
    expect(page.match(/<tr id="i-/g)).toHaveLength(50);
    expect(page).toMatch(/… <a href="http:\/\/127\.0\.0\.1:8642\/b\/big-50\/i\/item-000000">\+[\d,]+<\/a>/);
    // Room enough: whole answers, up to 4,000 characters each, and no cut note.
    const roomy = await writeReport(store, small, { output: join(dir, 'roomy.html'), pageSize: 7 });
    expect(readFileSync(roomy.path, 'utf8')).not.toContain('… <a href="http://127.0.0.1:8642/');
    expect(roomy.bytes).toBeGreaterThan(50 * ANSWER.length);
  });

  it('replaces the file whole or not at all: a read failing midway leaves the old file and no temp file', async () => {
    const out = join(dir, 'kept.html');
    writeFileSync(out, 'the old report');
    let pages = 0;
    // The real store, its export rows failing on the third page (a database gone mid-report).
    const failing = new Proxy(store, {
      get(target, key, recv) {
        if (key === 'aggregates') return async (...a: Parameters<Store['aggregates']>) => (++pages === 3 + Math.ceil(50 / 7) ? Promise.reject(new Error('database gone')) : target.aggregates(...a));
        const v = Reflect.get(target, key, recv) as unknown;
        return typeof v === 'function' ? (v as (...x: unknown[]) => unknown).bind(target) : v;
      },
    });
    await expect(writeReport(failing, small, { output: out, pageSize: 7 })).rejects.toThrow('database gone');
    expect(pages).toBe(3 + Math.ceil(50 / 7));
    expect(readFileSync(out, 'utf8')).toBe('the old report');
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('100,000 items with long answers stay under 20 MB, every item in it (built through the store; not timed)', async () => {
    const big = await bigBatch(store, 100_000);
    const out = join(dir, 'big.html');
    const r = await writeReport(store, big, { output: out });
    expect(r.items).toBe(100_000);
    expect(statSync(out).size).toBe(r.bytes);
    expect(r.bytes).toBeLessThanOrEqual(REPORT_MAX_BYTES);
    expect(r.bytes).toBeLessThan(20 * 1024 * 1024);
    const page = readFileSync(out, 'utf8');
    expect(page.match(/<tr id="i-/g)).toHaveLength(100_000);
    expect(page).toContain('<tr id="i-item-099999">');
    expect(page.match(/… <a href="http:\/\/127\.0\.0\.1:8642\/b\/big-100000\/i\/item-\d+">\+[\d,]+<\/a>/g)).toHaveLength(100_000);
    expect(page).toMatch(/<td>mentions<\/td><td class="n">66666<\/td><td class="n">33334<\/td>/);
    expect(existsSync(`${out}.tmp`)).toBe(false);
  }, 600_000);
});
