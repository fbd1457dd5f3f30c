import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelChart } from '../../src/notebook/model-rows.js';
import { NotebookError } from '../../src/notebook/errors.js';
import { openResults, type Results } from '../../src/notebook/results.js';
import { table } from '../../src/notebook/table.js';
import { emptyBatchDb, makeDemoDb } from './support/demo-db.js';
import { findAll, parseXml, textOf } from './support/xml.js';

let r: Results;
beforeAll(async () => {
  r = await openResults((await makeDemoDb()).db);
});
afterAll(async () => r?.close());

describe('models batch rows', () => {
  it('one row per input row: inputs as sent, outputs, credits, the failure reason', async () => {
    const rows = await r.modelRows('descriptors-molecules');
    expect(rows.map((x) => [x.id, x.status])).toEqual([
      ['ethanol', 'succeeded'],
      ['benzene', 'succeeded'],
      ['aspirin', 'succeeded'],
      ['caffeine', 'succeeded'],
      ['ibuprofen', 'succeeded'],
      ['chloroform', 'succeeded'],
      ['broken', 'failed'],
    ]);
    expect(rows[2]).toMatchObject({ inputs: { smiles: 'CC(=O)Oc1ccccc1C(=O)O', include_3d: true }, credits: 3 });
    expect(typeof rows[0]?.outputs?.mw).toBe('number');
    expect(rows[6]).toMatchObject({ outputs: null, error: "could not parse SMILES 'INVALID'", credits: 0 });
  });

  it('as a table, inputs and outputs become columns', async () => {
    const html = table(await r.modelRows('descriptors-molecules'))['text/html'] ?? '';
    const th = findAll(parseXml(`<div>${html}</div>`), 'th').map(textOf);
    expect(th).toEqual(expect.arrayContaining(['id', 'status', 'inputs.smiles', 'inputs.include_3d', 'outputs.mw', 'outputs.logp', 'credits']));
  });

  it('charts a numeric output; a failed row says why', async () => {
    const rows = await r.modelRows('descriptors-molecules');
    const b = modelChart(rows, 'mw', { unit: 'g/mol', label: (x) => `${x.id} ${String(x.inputs.smiles)}` });
    const el = parseXml(b['image/svg+xml'] ?? '');
    expect(findAll(el, 'rect')).toHaveLength(7);
    const t = findAll(el, 'text').map(textOf);
    expect(t).toContain('ethanol CCO');
    expect(t).toContain("failed: could not parse SMILES 'INVALID'");
    expect(b['text/plain']).toMatch(/ethanol CCO: [\d.]+ g\/mol/);
    expect(modelChart(rows, 'credits')['text/plain']).toContain('aspirin: 3');
  });

  it('a database with no models batch says how to make one', async () => {
    const e = await openResults(await emptyBatchDb());
    try {
      await expect(e.modelRows()).rejects.toThrow(NotebookError);
      await expect(e.modelRows()).rejects.toThrow('has no models batch yet: `resq models batch MODEL FILE --db …` makes one');
      expect(modelChart([], 'mw')['text/plain']).toBe('mw by row: the batch has no rows');
    } finally {
      await e.close();
    }
  });
});
