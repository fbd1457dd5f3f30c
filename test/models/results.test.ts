import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { modelBatchStatus, modelResultRows, writeModelResults, type ModelResultRow } from '../../src/models/results.js';
import { openStore, type BatchRecord, type Store } from '../../src/store/index.js';
import { claimAll, settings, tempDir } from './support/helpers.js';

async function seeded(): Promise<{ store: Store; batch: BatchRecord }> {
  const store = await openStore(':memory:');
  const rows = ['ok', 'bad', 'refused', 'unknown', 'running', 'queued'].map((id, i) => ({ id, line: i + 2, inputs: { sequence: id }, meta: {} }));
  await store.loadModelBatch({ id: 'b', name: 'fold-x', kind: 'models', sourcePath: '/x.csv', sourceSha256: 's', baseUrl: null, settings: settings(2), policy: null }, { modelId: 'fold', mode: 'async', description: {} }, rows);
  const ref = { id: 'f1', url: 'http://x/api/v1/files/f1', role: 'structure', name: 'a.pdb', tool: 'fold' };
  await claimAll(store, 'b');
  await store.markModelSubmitting('b', 'ok', 'k1', 'async', false);
  await store.markModelFinished('b', 'ok', { id: 'm1', status: 'succeeded', outputs: { meanPlddt: 80, structure: ref }, error: null, credits: 11, pollUrl: null, files: [ref], createdAt: null }, { httpStatus: 200, failed: false, polls: 0 });
  await store.markModelSubmitting('b', 'bad', 'k2', 'async', false);
  await store.markModelFinished('b', 'bad', { id: 'm2', status: 'failed', outputs: null, error: 'sequence must hold amino-acid letters only', credits: 0, pollUrl: null, files: [], createdAt: null }, { httpStatus: 200, failed: true, polls: 0 });
  await store.markModelSubmitting('b', 'refused', 'k3', 'async', false);
  await store.markModelError('b', 'refused', 'HTTP 400 POST /models/fold/runs (attempt 1/1): bad');
  await store.markModelSubmitting('b', 'unknown', 'k4', 'async', false);
  // The worker that sent it is gone: its outcome is unknown (no lease).
  await store.releaseItem('b', 'unknown', 'test-worker');
  await store.markModelSubmitting('b', 'running', 'k5', 'async', false);
  await store.markModelAdmitted('b', 'running', 202, { id: 'm5', status: 'running', outputs: null, error: null, credits: null, pollUrl: null });
  // The row never sent goes back to the queue.
  await store.markModelUnsent('b', 'queued');
  return { store, batch: (await store.findBatch('b'))! };
}

describe('model results', () => {
  it('gives one row per input row with the service status, error, credits and files', async () => {
    const { store, batch } = await seeded();
    const rows: ModelResultRow[] = [];
    for await (const r of modelResultRows(store, batch)) rows.push(r);
    expect(rows.map((r) => [r.id, r.status, r.model_run_id, r.credits])).toEqual([
      ['ok', 'succeeded', 'm1', 11],
      ['bad', 'failed', 'm2', 0],
      ['refused', 'error', null, null],
      ['unknown', 'unknown', null, null],
      ['running', 'running', 'm5', null],
      ['queued', 'queued', null, null],
    ]);
    expect(Object.keys(rows[0]!)).toEqual(['id', 'status', 'outputs', 'error', 'credits', 'model_run_id', 'files']);
    expect(rows[0]!.files).toEqual([{ id: 'f1', role: 'structure', name: 'a.pdb', path: null, bytes: null, sha256: null, status: 'pending' }]);
    expect(rows[1]!.error).toBe('sequence must hold amino-acid letters only');
    expect(rows[2]!.error).toMatch(/^HTTP 400/);
  });

  it('summarises credits, unknown submissions and failures for status', async () => {
    const { store, batch } = await seeded();
    const s = await modelBatchStatus(store, batch);
    expect(s).toMatchObject({
      batch: 'fold-x',
      model: 'fold',
      mode: 'async',
      total: 6,
      credits: { spent: 11, unreported: 0 },
      unknownSubmission: ['unknown'],
      files: { pending: 1 },
      failures: [{ id: 'bad' }, { id: 'refused' }],
    });
    expect(s?.counts).toMatchObject({ completed: 1, failed: 1, error: 1, submitting: 1, running: 1, queued: 1 });
  });

  it('writes the results file whole, through a temporary name', async () => {
    const { store, batch } = await seeded();
    const path = join(tempDir(), 'results.jsonl');
    expect(await writeModelResults(store, batch, path)).toBe(6);
    const lines = readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => l.id)).toEqual(['ok', 'bad', 'refused', 'unknown', 'running', 'queued']);
  });
});
