import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { holdsNoBatch } from '../../src/read/batch-list.js';
import { loadBatch } from '../../src/runner/index.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { tempDir } from '../support/cli.js';
import { testSettings } from '../support/in-process.js';

describe('holdsNoBatch', () => {
  it('is true for a database with no batch and false once one is recorded', async () => {
    const dir = tempDir();
    const store = SqliteStore.open(join(dir, 'resq.db'));
    try {
      expect(await holdsNoBatch(store)).toBe(true);
      const questions = join(dir, 'q.csv');
      writeFileSync(questions, 'id,question\na,first\n');
      await loadBatch({ store, questions, settings: testSettings(1), policy: null, baseUrl: null });
      expect(await holdsNoBatch(store)).toBe(false);
    } finally {
      await store.close();
    }
  });
});
