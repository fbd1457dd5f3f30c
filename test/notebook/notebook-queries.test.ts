import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ItemQuery } from '../../src/store/index.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { tempDir } from '../support/cli.js';
import { runInProcess } from '../support/in-process-cli.js';

/** The port's notebook projections on the SQLite adapter. */
let store: SqliteStore;
let batchId: string;

beforeAll(async () => {
  const dir = tempDir();
  const file = join(dir, 'typed.jsonl');
  const rows = [
    { id: 'a', question: 'First, 100% sure', n: 1, ok: true, tag: 'x', 'odd "key".x': 'q' },
    { id: 'b', question: 'second_one', n: 2, ok: false, tag: null },
    { id: 'c', question: 'THIRD', n: 1.5, ok: true },
    { id: 'd', question: 'fourth', n: '1', ok: 'true', tag: 'y' },
  ];
  writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n'));
  const db = join(dir, 'q.db');
  const r = await runInProcess(['run', file, '--db', db, '--dry-run', '--batch', 'typed']);
  expect(r.code, r.stderr).toBe(0);
  store = SqliteStore.open(db, { readonly: true });
  batchId = (await store.findBatch('typed'))!.id;
});
afterAll(async () => store?.close());

const ids = async (query: ItemQuery): Promise<string[]> => (await store.queryItems(batchId, query)).map((i) => i.id);

describe('notebook queries', () => {
  it('matches meta values by JSON type: numbers, booleans, null or absent', async () => {
    expect(await ids({ meta: { n: 1 } })).toEqual(['a']);
    expect(await ids({ meta: { n: '1' } })).toEqual(['d']);
    expect(await ids({ meta: { n: [1, 1.5] } })).toEqual(['a', 'c']);
    expect(await ids({ meta: { ok: true } })).toEqual(['a', 'c']);
    expect(await ids({ meta: { ok: false } })).toEqual(['b']);
    expect(await ids({ meta: { tag: null } })).toEqual(['b', 'c']);
    expect(await ids({ meta: { tag: ['x', null] } })).toEqual(['a', 'b', 'c']);
    expect(await ids({ meta: { tag: [] } })).toEqual([]);
  });

  it('meta keys with quotes and dots are matched whole', async () => {
    expect(await ids({ meta: { 'odd "key".x': 'q' } })).toEqual(['a']);
  });

  it('text search ignores case and treats % and _ literally', async () => {
    expect(await ids({ text: 'third' })).toEqual(['c']);
    expect(await ids({ text: '100%' })).toEqual(['a']);
    expect(await ids({ text: '_' })).toEqual(['b']);
    expect(await ids({ text: '%' })).toEqual(['a']);
  });

  it('states, limit, and file order', async () => {
    expect(await ids({ states: ['queued'], limit: 2 })).toEqual(['a', 'b']);
    expect(await ids({ states: [] })).toEqual([]);
    expect(await ids({ limit: 0 })).toEqual([]);
    expect((await store.queryItems(batchId))[0]).toMatchObject({ id: 'a', state: 'queued', meta: { n: 1, ok: true, tag: 'x' }, question: 'First, 100% sure' });
  });

  it('per-item statistics, run times and decisions of a batch nothing has run in', async () => {
    expect((await store.itemStats(batchId)).get('a')).toEqual({ itemId: 'a', runs: 0, runSeconds: 0, decisions: 0, approvedCost: 0, files: 0 });
    expect(await store.runTimes(batchId)).toEqual([]);
    expect(await store.batchDecisions(batchId)).toEqual([]);
  });
});
