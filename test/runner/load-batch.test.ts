import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatProblem, InputError } from '../../src/errors.js';
import { OFF_THREAD_BYTES, hashFile } from '../../src/tables/index.js';
import { appendToBatch, checkUnchanged, loadBatch } from '../../src/runner/index.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { tempDir } from '../support/cli.js';
import { testSettings } from '../support/in-process.js';

/** 600 rows (more than one insert chunk) with ids repeated within a chunk and across chunks. */
function withDuplicates(dir: string): string {
  const rows = Array.from({ length: 600 }, (_, i) => `r${i},question ${i}`);
  rows[10] = 'r3,again';
  rows[500] = 'r7,later';
  rows[501] = 'r7,and again';
  const file = join(dir, 'dups.csv');
  writeFileSync(file, `id,question\n${rows.join('\n')}\n`);
  return file;
}

describe('loadBatch', () => {
  it('names every duplicate id with the line of its first row, in file order, and stores nothing', async () => {
    const dir = tempDir();
    const questions = withDuplicates(dir);
    const store = SqliteStore.open(join(dir, 'resq.db'));
    const err = await loadBatch({ store, questions, settings: testSettings(2), policy: null, baseUrl: null }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).problems.map(formatProblem)).toEqual([
      `${questions}:12: id: duplicate "r3" (first on line 5)`,
      `${questions}:502: id: duplicate "r7" (first on line 9)`,
      `${questions}:503: id: duplicate "r7" (first on line 9)`,
    ]);
    expect(await store.listBatches()).toEqual([]);
    await store.close();
  });

  it('with skipInvalid stores the first row of each id, records the others and the file hash', async () => {
    const dir = tempDir();
    const questions = withDuplicates(dir);
    const store = SqliteStore.open(join(dir, 'resq.db'));
    const { batch, invalid } = await loadBatch({ store, questions, settings: testSettings(2), policy: null, baseUrl: null, skipInvalid: true });
    expect(batch.totalItems).toBe(597);
    expect(invalid.map((p) => p.line)).toEqual([12, 502, 503]);
    expect((await store.getItem(batch.id, 'r7'))?.question).toBe('question 7');
    expect((await store.itemCounts(batch.id)).queued).toBe(597);
    expect(batch.sourceSha256).toBe(await hashFile(questions));
    await store.close();
  });

  it('loads a .tsv with a "Question" header and returns the notice once', async () => {
    const dir = tempDir();
    const questions = join(dir, 'mine.tsv');
    writeFileSync(questions, 'ID\tQuestion\ttopic, area\na\tWhat, then?\tx\nb\tWhy?\ty\n');
    const store = SqliteStore.open(join(dir, 'resq.db'));
    const { batch, notices } = await loadBatch({ store, questions, settings: testSettings(2), policy: null, baseUrl: null });
    expect(batch.totalItems).toBe(2);
    expect(await store.getItem(batch.id, 'a')).toMatchObject({ question: 'What, then?', meta: { 'topic, area': 'x' } });
    expect(notices).toEqual([`${questions}:1: header: read "Question" as "question", "ID" as "id" (resq's column names are lower case)`]);
    await store.close();
  });

  it('a large file (parsed off thread, stored in bulk) loads whole, reports bad rows by line, and leaves WAL on', async () => {
    const dir = tempDir();
    const questions = join(dir, 'large.csv');
    const row = (i: number): string => `r${i},What is known about protein ${i} and its pathway?,topic-${i % 50}`;
    const n = Math.ceil(OFF_THREAD_BYTES / row(1e6).length) + 1000;
    const rows = Array.from({ length: n }, (_, i) => row(i));
    rows[150_000] = 'r17,same id as line 19,x';
    rows[190_000] = 'r190000,,empty question';
    writeFileSync(questions, `id,question,topic\n${rows.join('\n')}\n`);
    const store = SqliteStore.open(join(dir, 'resq.db'));
    const err = await loadBatch({ store, questions, settings: testSettings(2), policy: null, baseUrl: null }).catch((e: unknown) => e);
    expect((err as InputError).problems.map(formatProblem)).toEqual([
      `${questions}:150002: id: duplicate "r17" (first on line 19)`,
      `${questions}:190002: question: empty`,
    ]);
    expect(await store.listBatches()).toEqual([]);
    const { batch } = await loadBatch({ store, questions, settings: testSettings(2), policy: null, baseUrl: null, skipInvalid: true });
    expect(batch.totalItems).toBe(n - 2);
    expect(batch.sourceSha256).toBe(await hashFile(questions));
    // The refused duplicate keeps its seq (a gap); the empty question never got one.
    expect(await store.getItem(batch.id, `r${n - 1}`)).toMatchObject({ seq: n - 2, line: n + 1, meta: { topic: `topic-${(n - 1) % 50}` } });
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    await store.close();
  });
});

describe('appendToBatch', () => {
  /** A batch loaded from `text`, in a fresh database; the file is then free to change. */
  async function loaded(text: string) {
    const dir = tempDir();
    const questions = join(dir, 'grow.csv');
    writeFileSync(questions, text);
    const store = SqliteStore.open(join(dir, 'resq.db'));
    const { batch } = await loadBatch({ store, questions, settings: testSettings(2), policy: null, baseUrl: null });
    return { questions, store, batch };
  }
  const refusal = (e: unknown): string[] => (e as InputError).problems.map(formatProblem);

  it('appends the new ids of a grown file (a row inserted in the middle included), keeps the rest, records the new hash', async () => {
    const { questions, store, batch } = await loaded('id,question,topic\na,first,x\nb,second,y\n');
    writeFileSync(questions, 'id,question,topic\na,first,x\nnew1,inserted,z\nb,second,y\nnew2,last,z\n');
    await expect(checkUnchanged(batch, questions)).rejects.toThrow(new RegExp(`runs the new ones: resq run ${questions} --append$`));
    const grown = await appendToBatch({ store, batch, questions });
    expect([grown.appended, grown.kept, grown.batch.totalItems]).toEqual([2, 2, 4]);
    expect(grown.batch.sourceSha256).toBe(await hashFile(questions));
    await checkUnchanged(grown.batch, questions);
    expect((await store.listItems(batch.id)).map((i) => [i.id, i.seq, i.state])).toEqual([
      ['a', 0, 'queued'],
      ['b', 1, 'queued'],
      ['new1', 2, 'queued'],
      ['new2', 3, 'queued'],
    ]);
    await store.close();
  });

  it('refuses a changed existing row, naming its line, the column and the item; nothing is added', async () => {
    const { questions, store, batch } = await loaded('id,question,topic\na,first,x\nb,second,y\n');
    writeFileSync(questions, 'id,question,topic\na,first,x\nb,second,CHANGED\nc,new,z\nd,new,z\n');
    const err = await appendToBatch({ store, batch, questions }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect(refusal(err)).toEqual([
      `${questions}:3: meta "topic": changed since batch "grow" was started (item "b", line 3 then); --append adds new rows only: restore this one, or start a new batch with --batch NEW_NAME`,
    ]);
    writeFileSync(questions, 'id,question,topic\nb,second?,y\na,first,x\n');
    expect(refusal(await appendToBatch({ store, batch, questions }).catch((e: unknown) => e))[0]).toMatch(
      new RegExp(`^${questions}:2: question: changed since batch "grow" was started \\(item "b", line 3 then\\)`),
    );
    expect((await store.findBatch(batch.id))!.totalItems).toBe(2);
    expect(await store.listItems(batch.id)).toHaveLength(2);
    await store.close();
  });

  it('refuses a file that lost rows of the batch, and a bad or duplicate new row; nothing is added', async () => {
    const { questions, store, batch } = await loaded('id,question\na,first\nb,second\n');
    writeFileSync(questions, 'id,question\na,first\nc,new\n');
    await expect(appendToBatch({ store, batch, questions })).rejects.toThrow('1 of the 2 items of batch "grow" are no longer in the file');
    writeFileSync(questions, 'id,question\na,first\nb,second\nc,\nd,new\nd,again\n');
    expect(refusal(await appendToBatch({ store, batch, questions }).catch((e: unknown) => e))).toEqual([
      `${questions}:4: question: empty`,
      `${questions}:6: id: duplicate "d" (first on line 5)`,
    ]);
    expect(await store.listItems(batch.id)).toHaveLength(2);
    // With skipInvalid the good new row goes in and the bad ones are recorded.
    const grown = await appendToBatch({ store, batch, questions, skipInvalid: true });
    expect([grown.appended, grown.batch.totalItems, grown.batch.invalidRows.length]).toEqual([1, 3, 2]);
    await store.close();
  });
});
