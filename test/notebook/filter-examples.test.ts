import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleWord, metaFields } from '../../src/notebook/filter-examples.js';
import type { ItemRow } from '../../src/notebook/items.js';
import { openResults, type Results } from '../../src/notebook/results.js';
import { makeDemoDb } from './support/demo-db.js';

const row = (question: string, meta: Record<string, unknown>): ItemRow =>
  ({ id: question, status: 'completed', run_status: null, question, text: null, error: null, error_code: null, hold_reason: null, runs: 1, decisions: 0, cost: 0, files: 0, seconds: 1, thread_id: null, meta }) as ItemRow;

describe('metaFields', () => {
  it("lists a batch's own fields in order, each one's plain values most common first", () => {
    const rows = [
      row('a', { lab: 'north', year: 2024, tags: ['x'] }),
      row('b', { lab: 'south', year: 2024 }),
      row('c', { lab: 'south', reviewed: true, note: '' }),
    ];
    expect(metaFields(rows)).toEqual([
      { field: 'lab', values: [{ value: 'south', items: 2 }, { value: 'north', items: 1 }] },
      { field: 'year', values: [{ value: 2024, items: 2 }] },
      { field: 'reviewed', values: [{ value: true, items: 1 }] },
    ]);
    expect(metaFields([row('a', {})])).toEqual([]);
  });
});

describe('exampleWord', () => {
  it('is the most common longer word some questions have and others lack, directives aside', () => {
    const rows = [row('Spectra of cobalt complexes @files=md', {}), row('Cobalt toxicity in soils', {}), row('Nickel soils', {})];
    expect(exampleWord(rows)).toBe('cobalt');
    expect(exampleWord([row('same words', {}), row('same words', {})])).toBeNull();
    expect(exampleWord([row('Which metal melts first?', {}), row('Which solvent?', {}), row('Any metal', {})])).toBe('metal');
  });
});

describe('on the demo batch', () => {
  let r: Results;
  beforeAll(async () => {
    r = await openResults((await makeDemoDb()).db);
  });
  afterAll(async () => r?.close());

  it("the examples filter the batch's own items: each finds some, none finds all", async () => {
    const rows = await r.items('demo');
    const [first] = metaFields(rows);
    expect(first?.field).toBe('topic');
    const byMeta = await r.items('demo', { meta: { [first!.field]: first!.values[0]!.value } });
    expect(byMeta.length).toBe(first!.values[0]!.items);
    const word = exampleWord(rows)!;
    const byText = await r.items('demo', { text: word });
    expect(byText.length).toBeGreaterThan(0);
    expect(byText.length).toBeLessThan(rows.length);
  });
});
