import { describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { claimAll, settings } from './support/helpers.js';

/** The store port's operations for `models` batches, on the SQLite adapter. */

function store(): SqliteStore {
  return SqliteStore.open(':memory:');
}

const batch = (id: string) => ({ id, name: id, kind: 'models' as const, sourcePath: '/in.csv', sourceSha256: 'abc', baseUrl: null, settings: settings(2), policy: null });
const model = { modelId: 'fold', mode: null, description: { id: 'fold' } };

describe('models batches in the store', () => {
  it('loads all rows or none', async () => {
    const s = store();
    await expect(
      s.loadModelBatch(batch('b1'), model, [
        { id: 'a', line: 2, inputs: { sequence: 'A' }, meta: {} },
        { id: 'a', line: 3, inputs: { sequence: 'B' }, meta: {} },
      ]),
    ).rejects.toThrow();
    expect(await s.listBatches()).toEqual([]);
    expect(s.db.prepare('SELECT count(*) FROM model_runs').pluck().get()).toBe(0);
    await s.close();
  });

  it('keeps the key before the request, then the admission, then the result with files and credits', async () => {
    const s = store();
    await s.loadModelBatch(batch('b1'), model, [{ id: 'a', line: 2, inputs: { sequence: 'A' }, meta: { n: '1' } }, { id: 'b', line: 3, inputs: { sequence: 'B' }, meta: {} }]);
    expect(await s.modelBatch('b1')).toMatchObject({ modelId: 'fold', mode: null, description: { id: 'fold' } });
    expect((await claimAll(s, 'b1')).map((i) => i.id)).toEqual(['a', 'b']);
    await s.markModelSubmitting('b1', 'a', 'key-a', 'async', false);
    expect(await s.getItem('b1', 'a')).toMatchObject({ state: 'submitting', pendingKey: 'key-a' });
    expect(await s.modelRun('b1', 'a')).toMatchObject({ idempotencyKey: 'key-a', mode: 'async', submits: 1, modelRunId: null });
    await s.markModelAdmitted('b1', 'a', 202, { id: 'mr1', status: 'running', outputs: null, error: null, credits: null, pollUrl: 'http://x/model-runs/mr1' });
    expect(await s.getItem('b1', 'a')).toMatchObject({ state: 'running', runId: 'mr1', pendingKey: null });
    await s.addModelPolls('b1', 'a', 2);
    const file = { id: 'f1', url: 'http://x/api/v1/files/f1', role: 'structure', name: 'a.pdb', tool: 'fold' };
    await s.markModelFinished(
      'b1',
      'a',
      { id: 'mr1', status: 'succeeded', outputs: { structure: file }, error: null, credits: 11, pollUrl: null, files: [file], createdAt: '2026-01-01T00:00:00Z' },
      { httpStatus: null, failed: false, polls: 1 },
    );
    expect(await s.modelRun('b1', 'a')).toMatchObject({ status: 'succeeded', credits: 11, polls: 3, httpStatus: 202, outputs: { structure: file }, finishedAt: expect.any(String) });
    expect(await s.filesForItem('b1', 'a')).toEqual([expect.objectContaining({ id: 'f1', runId: 'mr1', role: 'structure', expiresAt: '2026-01-31T00:00:00.000Z' })]);
    expect(await s.getItem('b1', 'a')).toMatchObject({ state: 'completed', error: null, owner: null });

    await s.markModelSubmitting('b1', 'b', 'key-b', null, false);
    await s.markModelFinished('b1', 'b', { id: 'mr2', status: 'cancelled', outputs: null, error: null, credits: null, pollUrl: null, files: [], createdAt: null }, { httpStatus: 200, failed: true, polls: 0 });
    expect(await s.getItem('b1', 'b')).toMatchObject({ state: 'failed', runId: 'mr2', error: 'model run mr2 ended with status cancelled' });
    expect(await s.modelCredits('b1')).toEqual({ spent: 11, unreported: 1 });
    expect(await s.modelPolls('b1')).toBe(3);
    await s.close();
  });

  it('puts a provably unsent row back in the queue and ends a refused one in error', async () => {
    const s = store();
    await s.loadModelBatch(batch('b1'), model, [{ id: 'a', line: 2, inputs: {}, meta: {} }, { id: 'b', line: 3, inputs: {}, meta: {} }]);
    await claimAll(s, 'b1');
    await s.markModelSubmitting('b1', 'a', 'k', null, false);
    await s.markModelUnsent('b1', 'a');
    expect(await s.getItem('b1', 'a')).toMatchObject({ state: 'queued', pendingKey: null, owner: null });
    expect((await s.modelRun('b1', 'a'))?.idempotencyKey).toBe('k');
    // Sent again with its stored key: counted as a resend.
    await s.markModelSubmitting('b1', 'a', 'k', null, true);
    expect((await s.modelRun('b1', 'a'))?.submits).toBe(2);
    await s.markModelError('b1', 'b', 'HTTP 400: bad input');
    expect(await s.getItem('b1', 'b')).toMatchObject({ state: 'error', error: 'HTTP 400: bad input' });
    expect((await s.modelRun('b1', 'b'))?.error).toBe('HTTP 400: bad input');
    expect(s.db.prepare("SELECT state, model_id FROM model_run_list WHERE item_id = 'b'").get()).toEqual({ state: 'error', model_id: 'fold' });
    await s.close();
  });
});
