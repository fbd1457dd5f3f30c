import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError, formatProblem } from '../../src/errors.js';
import { type RowBatch, hashFile, readQuestionSet, readRowBatches } from '../../src/tables/index.js';
import { tempDir } from '../support/cli.js';

const BAD = 'test/fixtures/bad';
const GOOD = 'test/fixtures/good';

interface Flat {
  rows: Array<[string, number, string, string | null, unknown]>;
  problems: string[];
  sizes: number[];
  sha256: string | null;
}

/** Everything a batch read gives, flattened, with the batch sizes. */
async function flatten(path: string, offThread: boolean, batchRows?: number): Promise<Flat> {
  const read = await readRowBatches(path, { offThread, batchRows });
  const out: Flat = { rows: [], problems: [], sizes: [], sha256: null };
  for await (const b of read.batches) {
    out.sizes.push(b.ids.length);
    out.problems.push(...b.problems.map(formatProblem));
    for (let i = 0; i < b.ids.length; i++)
      out.rows.push([b.ids[i]!, b.lines[i]!, b.questions[i]!, b.threads[i]!, JSON.parse(b.metas[i]!)]);
  }
  out.sha256 = read.sha256();
  return out;
}

/** What readQuestionSet gives for the same file, in the same shape. */
async function reference(path: string): Promise<Omit<Flat, 'sizes' | 'sha256'>> {
  const out: Omit<Flat, 'sizes' | 'sha256'> = { rows: [], problems: [] };
  for await (const r of readQuestionSet(path)) {
    if (r.ok) out.rows.push([r.row.id, r.row.line, r.row.question, r.row.thread, r.row.meta]);
    else out.problems.push(formatProblem(r.problem));
  }
  return out;
}

const fixtures = [
  ...readdirSync(BAD).map((f) => join(BAD, f)),
  ...readdirSync(GOOD).map((f) => join(GOOD, f)),
].filter((f) => /\.(csv|jsonl)$/.test(f));

describe('readRowBatches', () => {
  it.each([false, true])('gives every row and problem of every fixture as readQuestionSet does (off thread: %s)', async (offThread) => {
    for (const file of fixtures) {
      const got = await flatten(file, offThread, 3);
      expect({ file, rows: got.rows, problems: got.problems }).toEqual({ file, ...(await reference(file)) });
      expect(got.sizes.every((n) => n <= 3)).toBe(true);
    }
  });

  it('hashes the bytes it read, on either thread, and says null when reading stopped early', async () => {
    const good = join(GOOD, 'meta-threads.jsonl');
    // A stray quote stops csv-parse in the first of several chunks: the rest is never read.
    const stopped = join(tempDir(), 'stray.csv');
    writeFileSync(stopped, `id,question\n1,a "stray" quote\n${'2,fine\n'.repeat(100_000)}`);
    for (const offThread of [false, true]) {
      expect((await flatten(good, offThread)).sha256).toBe(await hashFile(good));
      const early = await flatten(stopped, offThread);
      expect(early.problems).toEqual([expect.stringContaining(`${stopped}:2: stray quote`)]);
      expect(early.sha256).toBeNull();
    }
  });

  it('off thread, a file that cannot be opened is the same InputError as here', async () => {
    const missing = join(tempDir(), 'nope.csv');
    const errors = await Promise.all(
      [false, true].map(async (offThread) => {
        const read = await readRowBatches(missing, { offThread });
        return read.batches.next().then(
          () => null,
          (e: unknown) => e,
        );
      }),
    );
    for (const e of errors) {
      expect(e).toBeInstanceOf(InputError);
      expect((e as InputError).problems.map(formatProblem)).toEqual([`${missing}: cannot open: no such file`]);
    }
  });

  it('off thread, a large file arrives whole, in order and in bounded batches, with meta as JSON text', async () => {
    const file = join(tempDir(), 'big.jsonl');
    const n = 20_000;
    const lines = Array.from({ length: n }, (_, i) => JSON.stringify({ id: `r${i}`, question: `q ${i} ✓`, thread: i % 7 === 0 ? 't' : undefined, n: i }));
    writeFileSync(file, `${lines.join('\n')}\n`);
    const read = await readRowBatches(file, { offThread: true });
    let next = 0;
    let largest = 0;
    for await (const b of read.batches as AsyncGenerator<RowBatch>) {
      largest = Math.max(largest, b.ids.length);
      for (let i = 0; i < b.ids.length; i++, next++) {
        expect(b.ids[i]).toBe(`r${next}`);
        expect(b.lines[i]).toBe(next + 1);
        expect(b.threads[i]).toBe(next % 7 === 0 ? 't' : null);
        expect(b.metas[i]).toBe(JSON.stringify({ n: next }));
      }
    }
    expect(next).toBe(n);
    expect(largest).toBeLessThanOrEqual(512);
    expect(read.sha256()).toBe(await hashFile(file));
  });

  it('off thread, stopping early ends the worker (no hang, no leak of the file handle)', async () => {
    const file = join(tempDir(), 'stop.csv');
    writeFileSync(file, `id,question\n${Array.from({ length: 50_000 }, (_, i) => `r${i},q${i}`).join('\n')}\n`);
    const read = await readRowBatches(file, { offThread: true, batchRows: 100 });
    const first = await read.batches.next();
    expect(first.done).toBe(false);
    await read.batches.return(undefined);
    expect(read.sha256()).toBeNull();
  });
});
