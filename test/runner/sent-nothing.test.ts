// Whether a batch ever sent anything to its service, read from a real SQLite store that the
// CLI filled (a dry run, a run of part of a batch, a run of all of it).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { batchSentNothing } from '../../src/runner/sent-nothing.js';
import { openStore } from '../../src/store/open.js';
import { tempDir } from '../support/cli.js';
import { runInProcess } from '../support/in-process-cli.js';

/** Runs the CLI on a fresh database with `args`, then reads the batch `s` back. */
async function sentNothingAfter(...runs: string[][]): Promise<boolean> {
  const dir = tempDir('resq-sent-');
  const q = join(dir, 's.csv');
  writeFileSync(q, `id,question\n${Array.from({ length: 5 }, (_, i) => `i${i},question ${i}`).join('\n')}\n`);
  const db = join(dir, 'r.db');
  for (const args of runs) {
    const r = await runInProcess(['run', q, '--db', db, '--sim', ...args]);
    expect(r.code, r.stderr).toBe(0);
  }
  const store = await openStore(db);
  try {
    const batch = await store.findBatch('s');
    return await batchSentNothing(store, batch!.id);
  } finally {
    await store.close();
  }
}

describe('batchSentNothing', () => {
  it('is true after a dry run (every item queued, none with a run)', async () => {
    expect(await sentNothingAfter(['--dry-run'])).toBe(true);
  });

  it('is false once part of the batch ran (--limit 2: the others still queued)', { timeout: 30_000 }, async () => {
    expect(await sentNothingAfter(['--dry-run'], ['--limit', '2'])).toBe(false);
  });

  it('is false once the whole batch ran', { timeout: 30_000 }, async () => {
    expect(await sentNothingAfter([])).toBe(false);
  });
});
