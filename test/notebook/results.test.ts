import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotebookError } from '../../src/notebook/errors.js';
import { openResults, type Results } from '../../src/notebook/results.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { tempDir } from '../support/cli.js';
import { makeDemoDb, type DemoDb } from './support/demo-db.js';

let demo: DemoDb;
let r: Results;
beforeAll(async () => {
  demo = await makeDemoDb();
  r = await openResults(demo.db);
});
afterAll(async () => r?.close());

describe('openResults', () => {
  it('a missing database is a clear error that says how to make one, and creates nothing', async () => {
    const path = join(tempDir(), 'nope.db');
    await expect(openResults(path)).rejects.toThrow(NotebookError);
    await expect(openResults(path)).rejects.toThrow(`no resq database at ${path}: run \`npm run demo\` first`);
    expect(existsSync(path)).toBe(false);
  });

  it('lists batches newest first with their counts', async () => {
    expect((await r.batches()).map((b) => [b.name, b.kind, b.items, b.completed, b.failed, b.held, b.unfinished])).toEqual([
      ['descriptors-molecules', 'models', 7, 6, 1, 0, 0],
      ['demo', 'runs', 11, 9, 1, 1, 0],
    ]);
    expect((await r.batches('runs')).map((b) => b.name)).toEqual(['demo']);
  });

  it('finds a batch by name or id; without one, the newest (of a kind)', async () => {
    const demoBatch = await r.batch('demo');
    expect((await r.batch(demoBatch.id)).name).toBe('demo');
    expect(await r.batch(demoBatch)).toBe(demoBatch);
    expect((await r.batch()).name).toBe('descriptors-molecules');
    expect((await r.batch(undefined, 'runs')).name).toBe('demo');
    // Helpers about agent runs default to the newest agent batch, not a newer models batch.
    expect((await r.summary()).batch).toBe('demo');
    expect(await r.modelRows()).toHaveLength(7);
  });

  it('an unknown or wrong-kind batch is a clear error naming what there is', async () => {
    await expect(r.batch('nope')).rejects.toThrow(`has no batch "nope"; it has: descriptors-molecules, demo`);
    await expect(r.batch('demo', 'models')).rejects.toThrow('batch "demo" is an agent batch, not a models batch');
    await expect(r.modelRows('demo')).rejects.toThrow(NotebookError);
  });

  it('is read-only', async () => {
    expect(r.store).toBeInstanceOf(SqliteStore);
    expect(() => (r.store as SqliteStore).db.exec("UPDATE items SET state = 'queued'")).toThrow(/readonly/);
  });
});
