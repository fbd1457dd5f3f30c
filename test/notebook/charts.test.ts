import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { durationChart, mediaTypeChart, mediaTypeOf, planCostChart, statusChart } from '../../src/notebook/charts.js';
import { openResults, type Results } from '../../src/notebook/results.js';
import { emptyBatchDb, makeDemoDb } from './support/demo-db.js';
import { findAll, parseXml, textOf, type XmlElement } from './support/xml.js';

let r: Results;
beforeAll(async () => {
  r = await openResults((await makeDemoDb()).db);
});
afterAll(async () => r?.close());

function svg(b: { 'image/svg+xml'?: string }): XmlElement {
  return parseXml(b['image/svg+xml'] ?? '');
}
const texts = (el: XmlElement) => findAll(el, 'text').map(textOf);

describe('batch charts', () => {
  it('items by status: one bar per status present', async () => {
    const el = svg(statusChart(await r.summary('demo')));
    expect(texts(el)).toEqual(expect.arrayContaining(['Items by status — demo', 'held', 'completed', 'failed', '9']));
    expect(findAll(el, 'rect').map((x) => x.attrs.fill)).toEqual(['#edc948', '#59a14f', '#e15759']);
  });

  it('run durations: one bar per item split into its runs, or a histogram for many items', async () => {
    const runs = await r.runDurations('demo');
    expect(runs).toHaveLength(17);
    expect(runs.filter((x) => x.item === 'route').map((x) => x.paused_on)).toEqual(['confirm_scope', 'ask_choice', null]);
    const el = svg(durationChart(runs));
    expect(findAll(el, 'rect').filter((x) => x.children.length)).toHaveLength(17);
    expect(texts(el)).toEqual(expect.arrayContaining(['first run', 'after answer 1', 'after answer 2']));
    expect(texts(el).some((t) => /^\d+\.\d\d s in 3 runs$/.test(t))).toBe(true);
    const hist = durationChart(runs, { maxBars: 5 });
    expect(hist['text/plain']).toMatch(/^Run durations \(17 runs\)/);
    const counts = (hist['text/plain'] ?? '').split('\n').slice(1).map((l) => Number(l.split(': ')[1]));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(17);
    svg(hist);
  });

  it('cost of plans: approved in colour, declined in grey, total against the budget', async () => {
    const plans = await r.plans('demo');
    expect(plans.map((p) => [p.item, p.cost, p.approved, p.by]).sort()).toEqual([
      ['fold', 4, true, 'policy'],
      ['route', 6, true, 'policy'],
      ['survey', 40, false, 'policy'],
    ]);
    const el = svg(planCostChart(plans, { budget: 50 }));
    expect(texts(el)[0]).toBe('Cost of plans — 10 approved of budget 50');
    expect(texts(el)).toContain('40 declined (the policy)');
  });

  it('files by media type, with sizes', async () => {
    const files = await r.files('demo');
    const el = svg(mediaTypeChart(files));
    expect(texts(el)).toEqual(expect.arrayContaining(['text/markdown', 'text/csv', 'image/png', 'chemical/x-pdb']));
    expect(mediaTypeOf({ mediaType: 'text/csv; charset=utf-8', name: null })).toBe('text/csv');
    expect(mediaTypeOf({ mediaType: null, name: 'a.png' })).toBe('png (by name)');
    expect(mediaTypeOf({ mediaType: null, name: 'a.bin' })).toBe('unknown');
  });

  it('an empty batch draws well-formed charts that say why they are empty', async () => {
    const e = await openResults(await emptyBatchDb());
    try {
      expect(statusChart(await e.summary())['text/plain']).toBe('Items by status — empty: batch "empty" has no items');
      expect(durationChart(await e.runDurations())['text/plain']).toBe('Run durations: no finished runs');
      expect(planCostChart(await e.plans())['text/plain']).toContain('no plan asked for approval');
      const files = mediaTypeChart(await e.files());
      expect(texts(svg(files))).toEqual(['Files by media type', 'no files']);
      expect(await e.items()).toEqual([]);
    } finally {
      await e.close();
    }
  });
});
