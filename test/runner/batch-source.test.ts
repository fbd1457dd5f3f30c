import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkUnchanged, defaultBatchName, SourceChangedError } from '../../src/runner/batch-source.js';
import { loadBatch } from '../../src/runner/load-batch.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { tempDir } from '../support/cli.js';
import { testSettings } from '../support/in-process.js';

describe('a batch and its question file', () => {
  it('takes its default name from the file, without the extension', () => {
    expect(defaultBatchName('/data/questions.csv')).toBe('questions');
    expect(defaultBatchName('runs.v2.jsonl')).toBe('runs.v2');
    expect(defaultBatchName('.hidden')).toBe('.hidden');
  });

  it('passes the file it was loaded from; a changed one names the batch it no longer matches and, for a run batch, the --append that runs the new rows', async () => {
    const dir = tempDir();
    const questions = join(dir, 'grow.csv');
    writeFileSync(questions, 'id,question\na,first\n');
    const store = SqliteStore.open(join(dir, 'resq.db'));
    try {
      const { batch } = await loadBatch({ store, questions, settings: testSettings(2), policy: null, baseUrl: null });
      await checkUnchanged(batch, questions);
      writeFileSync(questions, 'id,question\na,changed\n');
      const err = await checkUnchanged(batch, questions).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SourceChangedError);
      expect((err as SourceChangedError).batch).toMatchObject({ id: batch.id, name: batch.name, sourcePath: batch.sourcePath });
      expect((err as SourceChangedError).appendArgv).toEqual(['resq', 'run', questions, '--append']);
      expect((err as Error).message).toMatch(new RegExp(`^${questions}: the question set changed since batch "grow" was started`));
    } finally {
      await store.close();
    }
  });
});
