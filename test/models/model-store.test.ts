import { describe, expect, it } from 'vitest';
import { ModelStore } from '../../src/store/model-store.js';
import { Store } from '../../src/store/index.js';
import { settings } from './support/helpers.js';

function store(): ModelStore {
  return new ModelStore(Store.open(':memory:'));
}

const batch = (id: string) => ({ id, name: id, kind: 'models' as const, sourcePath: '/in.csv', sourceSha256: 'abc', baseUrl: null, settings: settings(2), policy: null });
const model = { modelId: 'fold', mode: null, description: { id: 'fold' } };

describe('ModelStore', () => {
  it('loads all rows or none', () => {
    const ms = store();
    expect(() => ms.loadBatch(batch('b1'), model, [
      { id: 'a', line: 2, inputs: { sequence: 'A' }, meta: {} },
      { id: 'a', line: 3, inputs: { sequence: 'B' }, meta: {} },
    ])).toThrow();
    expect(ms.store.batches.list()).toEqual([]);
    expect(ms.store.db.prepare('SELECT count(*) FROM model_runs').pluck().get()).toBe(0);
  });

  it('keeps the key before the request, then the admission, then the result with files and credits', () => {
    const ms = store();
    ms.loadBatch(batch('b1'), model, [{ id: 'a', line: 2, inputs: { sequence: 'A' }, meta: { n: '1' } }, { id: 'b', line: 3, inputs: { sequence: 'B' }, meta: {} }]);
    ms.markSubmitting('b1', 'a', 'key-a', 'async');
    expect(ms.store.items.get('b1', 'a')).toMatchObject({ state: 'submitting', pendingKey: 'key-a' });
    expect(ms.modelRuns.get('b1', 'a')).toMatchObject({ idempotencyKey: 'key-a', mode: 'async', submits: 1, modelRunId: null });
    ms.markAdmitted('b1', 'a', 202, { id: 'mr1', status: 'running', outputs: null, error: null, credits: null, pollUrl: 'http://x/model-runs/mr1' });
    expect(ms.store.items.get('b1', 'a')).toMatchObject({ state: 'running', runId: 'mr1', pendingKey: null });
    ms.addPolls('b1', 'a', 2);
    const file = { id: 'f1', url: 'http://x/api/v1/files/f1', role: 'structure', name: 'a.pdb', tool: 'fold' };
    ms.markFinished('b1', 'a', { id: 'mr1', status: 'succeeded', outputs: { structure: file }, error: null, credits: 11, pollUrl: null, files: [file], createdAt: '2026-01-01T00:00:00Z' }, { httpStatus: null, failed: false, polls: 1 });
    expect(ms.modelRuns.get('b1', 'a')).toMatchObject({ status: 'succeeded', credits: 11, polls: 3, httpStatus: 202, outputs: { structure: file }, finishedAt: expect.any(String) });
    expect(ms.store.files.forItem('b1', 'a')).toEqual([expect.objectContaining({ id: 'f1', runId: 'mr1', role: 'structure', expiresAt: '2026-01-31T00:00:00.000Z' })]);
    expect(ms.store.items.get('b1', 'a')).toMatchObject({ state: 'completed', error: null });

    ms.markSubmitting('b1', 'b', 'key-b', null);
    ms.markFinished('b1', 'b', { id: 'mr2', status: 'cancelled', outputs: null, error: null, credits: null, pollUrl: null, files: [], createdAt: null }, { httpStatus: 200, failed: true, polls: 0 });
    expect(ms.store.items.get('b1', 'b')).toMatchObject({ state: 'failed', runId: 'mr2', error: 'model run mr2 ended with status cancelled' });
    expect(ms.modelRuns.credits('b1')).toEqual({ spent: 11, unreported: 1 });
    expect(ms.modelRuns.pollCount('b1')).toBe(3);
  });

  it('puts a provably unsent row back in the queue and ends a refused one in error', () => {
    const ms = store();
    ms.loadBatch(batch('b1'), model, [{ id: 'a', line: 2, inputs: {}, meta: {} }, { id: 'b', line: 3, inputs: {}, meta: {} }]);
    ms.markSubmitting('b1', 'a', 'k', null);
    ms.markUnsent('b1', 'a');
    expect(ms.store.items.get('b1', 'a')).toMatchObject({ state: 'queued', pendingKey: null });
    expect(ms.modelRuns.get('b1', 'a')?.idempotencyKey).toBe('k');
    ms.markResending('b1', 'a');
    expect(ms.modelRuns.get('b1', 'a')?.submits).toBe(2);
    ms.markError('b1', 'b', 'HTTP 400: bad input');
    expect(ms.store.items.get('b1', 'b')).toMatchObject({ state: 'error', error: 'HTTP 400: bad input' });
    expect(ms.modelRuns.get('b1', 'b')?.error).toBe('HTTP 400: bad input');
    expect(ms.store.db.prepare("SELECT state, model_id FROM model_run_list WHERE item_id = 'b'").get()).toEqual({ state: 'error', model_id: 'fold' });
  });
});
