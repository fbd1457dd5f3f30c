import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotebookError } from '../../src/notebook/errors.js';
import { openResults, type Results } from '../../src/notebook/results.js';
import { tempDir } from '../support/cli.js';
import { makeDemoDb, type DemoDb } from './support/demo-db.js';

let demo: DemoDb;
let r: Results;
beforeAll(async () => {
  demo = await makeDemoDb();
  r = openResults(demo.db);
});
afterAll(() => r?.close());

describe('openResults', () => {
  it('a missing database is a clear error that says how to make one, and creates nothing', () => {
    const path = join(tempDir(), 'nope.db');
    expect(() => openResults(path)).toThrow(NotebookError);
    expect(() => openResults(path)).toThrow(`no resq database at ${path}: run \`npm run demo\` first`);
    expect(existsSync(path)).toBe(false);
  });

  it('lists batches newest first with their counts', () => {
    expect(r.batches().map((b) => [b.name, b.kind, b.items, b.completed, b.failed, b.held, b.unfinished])).toEqual([
      ['descriptors-molecules', 'models', 7, 6, 1, 0, 0],
      ['demo', 'runs', 11, 9, 1, 1, 0],
    ]);
    expect(r.batches('runs').map((b) => b.name)).toEqual(['demo']);
  });

  it('finds a batch by name or id; without one, the newest (of a kind)', () => {
    const demoBatch = r.batch('demo');
    expect(r.batch(demoBatch.id).name).toBe('demo');
    expect(r.batch(demoBatch)).toBe(demoBatch);
    expect(r.batch().name).toBe('descriptors-molecules');
    expect(r.batch(undefined, 'runs').name).toBe('demo');
    // Helpers about agent runs default to the newest agent batch, not a newer models batch.
    expect(r.summary().batch).toBe('demo');
    expect(r.modelRows()).toHaveLength(7);
  });

  it('an unknown or wrong-kind batch is a clear error naming what there is', () => {
    expect(() => r.batch('nope')).toThrow(`has no batch "nope"; it has: descriptors-molecules, demo`);
    expect(() => r.batch('demo', 'models')).toThrow('batch "demo" is an agent batch, not a models batch');
    expect(() => r.modelRows('demo')).toThrow(NotebookError);
  });

  it('is read-only', () => {
    expect(() => r.store.db.exec("UPDATE items SET state = 'queued'")).toThrow(/readonly/);
  });
});
