import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openResults, type Results } from '../../src/notebook/results.js';
import { summaryTable } from '../../src/notebook/summary.js';
import { emptyBatchDb, makeDemoDb } from './support/demo-db.js';
import { findAll, parseXml, textOf } from './support/xml.js';

let r: Results;
beforeAll(async () => {
  r = await openResults((await makeDemoDb()).db);
});
afterAll(async () => r?.close());

describe('batch summary', () => {
  it('counts items by status, runs, decisions, approved cost against the budget, files', async () => {
    const s = await r.summary('demo');
    expect(s).toMatchObject({
      batch: 'demo',
      kind: 'runs',
      total: 11,
      counts: { queued: 0, running: 0, waiting: 0, held: 1, completed: 9, failed: 1, error: 0 },
      runs: 17,
      decisions: 6,
      approvedCost: 10,
      budget: 50,
      credits: null,
      files: { downloaded: 10, pending: 0, failed: 0, expired: 0, missing: 0 },
      invalidRows: 0,
    });
    expect(s.fileBytes).toBeGreaterThan(0);
    expect(s.medianSeconds).toBeGreaterThan(0);
  });

  it('a models batch reports the credits spent', async () => {
    expect(await r.summary('descriptors-molecules')).toMatchObject({ kind: 'models', runs: 0, credits: 14, counts: { completed: 6, failed: 1 } });
  });

  it('renders as a two-column table', async () => {
    const root = parseXml(`<div>${summaryTable(await r.summary('demo'))['text/html']}</div>`);
    const cells = findAll(root, 'td').map(textOf);
    expect(cells).toContain('cost approved');
    expect(cells).toContain('10 of budget 50');
    expect(cells).toContain('9 (82%)');
  });

  it('an empty batch says it has no items', async () => {
    const e = await openResults(await emptyBatchDb());
    try {
      const s = await e.summary('empty');
      expect(s).toMatchObject({ total: 0, runs: 0, decisions: 0, approvedCost: 0, budget: null, medianSeconds: null });
      const t = summaryTable(s)['text/plain'] ?? '';
      expect(t).toContain('batch "empty" has no items');
      expect(t).toContain('files                 none');
    } finally {
      await e.close();
    }
  });
});
