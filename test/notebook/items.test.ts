import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itemRow, statesFor } from '../../src/notebook/items.js';
import type { ItemRecord } from '../../src/store/index.js';
import { openResults, type Results } from '../../src/notebook/results.js';
import { loadBatch } from '../../src/runner/load-batch.js';
import { openStore } from '../../src/store/index.js';
import { tempDir } from '../support/cli.js';
import { testSettings } from '../support/in-process.js';
import { makeDemoDb } from './support/demo-db.js';

let r: Results;
beforeAll(async () => {
  r = await openResults((await makeDemoDb()).db);
});
afterAll(async () => r?.close());

const ids = async (f: Parameters<Results['items']>[1]): Promise<string[]> => (await r.items('demo', f)).map((i) => i.id);

describe('item filters', () => {
  it('statesFor maps statuses, held and failed onto item states', async () => {
    expect(statesFor({})).toBeUndefined();
    expect(statesFor({ status: 'running' })).toEqual(['submitting', 'running']);
    expect(statesFor({ failed: true })).toEqual(['failed', 'error']);
    expect(statesFor({ held: false, failed: false, status: ['held', 'completed', 'queued'] })).toEqual(['queued', 'completed']);
    expect(statesFor({ held: true, status: 'completed' })).toEqual([]);
    expect(statesFor({ status: 'cancelled' })).toEqual(['cancelled']);
  });

  it('finds cancelled items by their status', async () => {
    // A batch cancelled before it ran: its queued items end `cancelled` in a real SQLite file.
    const dir = tempDir('resq-notebook-cancelled-');
    const questions = join(dir, 'cancelled.csv');
    writeFileSync(questions, 'id,question\na,first\nb,second\n');
    const store = await openStore(join(dir, 'resq.db'));
    try {
      const { batch } = await loadBatch({ store, questions, settings: testSettings(2), policy: null, baseUrl: 'http://127.0.0.1:9/api/v1' });
      expect(await store.cancelBatch(batch.id)).toBe(2);
    } finally {
      await store.close();
    }
    const results = await openResults(join(dir, 'resq.db'));
    try {
      expect((await results.items('cancelled', { status: 'cancelled' })).map((i) => [i.id, i.status])).toEqual([
        ['a', 'cancelled'],
        ['b', 'cancelled'],
      ]);
      expect(await results.items('cancelled', { status: 'queued' })).toEqual([]);
    } finally {
      await results.close();
    }
  });

  it('lists every item in file order as plain rows', async () => {
    const rows = await r.items('demo');
    expect(rows.map((i) => i.id)).toEqual(['melting', 'fold', 'survey', 'solvent', 'figure', 'route', 'toxicity', 'booking', 'nacl', 'kcl', 'lattice']);
    const fold = rows[1]!;
    expect(fold).toMatchObject({ status: 'completed', runs: 2, decisions: 1, cost: 4, files: 2, meta: { topic: 'biology' } });
    expect(fold.text).toContain('Simulated answer');
    expect(fold.seconds).toBeGreaterThan(0);
    expect(JSON.parse(JSON.stringify(rows))).toEqual(rows);
  });

  it('filters by status, held and failed', async () => {
    expect(await ids({ failed: true })).toEqual(['toxicity']);
    // The failed table's row: the service's code and message, verbatim.
    expect((await r.items('demo', { failed: true }))[0]).toMatchObject({ error_code: 'agent_error', error: 'simulated failure (@fail)' });
    expect(await ids({ held: true })).toEqual(['booking']);
    expect(await ids({ status: ['failed', 'held'] })).toEqual(['toxicity', 'booking']);
    expect(await ids({ failed: false, held: false })).toHaveLength(9);
    expect((await r.items('demo', { held: true }))[0]?.hold_reason).toContain('book_instrument');
  });

  it('filters by meta fields, one value or any of a list', async () => {
    expect(await ids({ meta: { topic: 'chemistry' } })).toEqual(['melting', 'solvent', 'route']);
    expect(await ids({ meta: { topic: ['safety', 'facility'] } })).toEqual(['toxicity', 'booking']);
    expect(await ids({ meta: { topic: 'nothing' } })).toEqual([]);
    expect(await ids({ meta: { topic: 'materials' }, status: 'completed', limit: 2 })).toEqual(['survey', 'nacl']);
  });

  it('searches id, question and answer text, ignoring case', async () => {
    expect(await ids({ text: 'CHLORIDE' })).toEqual(['nacl', 'kcl']);
    expect(await ids({ text: 'gallium' })).toEqual(['melting']);
    expect(await ids({ text: 'narrow' })).toEqual(['survey']);
    expect(await ids({ text: "it's 100%_" })).toEqual([]);
  });
});

describe('itemRow seconds', () => {
  const item: ItemRecord = {
    batchId: 'b', id: 'slow', seq: 0, line: 2, question: 'q', threadKey: null, meta: {}, state: 'completed', step: 1,
    pendingKey: null, pendingAnswer: null, runId: 'r2', threadId: 't', runStatus: 'completed', text: 'done', error: null, errorCode: null,
    holdReason: null, startedAt: '2026-01-01T00:00:00Z', finishedAt: '2026-01-02T00:00:05Z', updatedAt: '', owner: null, leaseUntil: null, attempt: 0,
  } as ItemRecord;
  // A run of 2 s, then the batch sat stopped (or the pause waited for a person) a day, then a run of 3 s.
  const times = [
    { createdAt: '2026-01-01T00:00:00Z', finishedAt: '2026-01-01T00:00:02Z', seconds: 2 },
    { createdAt: '2026-01-02T00:00:02Z', finishedAt: '2026-01-02T00:00:05Z', seconds: 3 },
  ];

  it('counts the time its runs ran, not the time between them', () => {
    expect(itemRow(item, undefined, times).seconds).toBe(5);
  });

  it('is null while the item is unfinished', () => {
    expect(itemRow({ ...item, state: 'held' }, undefined, times.slice(0, 1)).seconds).toBeNull();
  });
});
