import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openResults, type Results } from '../../src/notebook/results.js';
import { decisionsTable, statusTable } from '../../src/notebook/status-view.js';
import { makeDemoDb } from './support/demo-db.js';
import { findAll, parseXml, textOf } from './support/xml.js';

let r: Results;
beforeAll(async () => {
  r = await openResults((await makeDemoDb()).db);
});
afterAll(async () => r?.close());

describe('the status and decisions in a notebook', () => {
  it("the batch's status as resq status computes it, as a table: counts, held, rate, and no ETA with no worker but what is left", async () => {
    const s = await r.status('demo', Date.parse('2030-01-01T00:00:00Z'));
    expect(s).toMatchObject({ name: 'demo', held: 1, liveWorkers: 0, unfinished: 0, etaS: 0, next: null });
    const cells = findAll(parseXml(`<div>${statusTable(s)['text/html']}</div>`), 'td').map(textOf);
    expect(cells).toEqual(expect.arrayContaining(['held for a person', '1', 'ETA', 'done', 'workers', '0 live']));
  });

  it("every decision names who made it: the policy's rule, a person's name and note", async () => {
    const rows = await r.decisions('demo');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows[0]).toMatchObject({ by: 'policy', person: null, words: expect.any(String) });
    const th = findAll(parseXml(`<div>${decisionsTable(rows)['text/html']}</div>`), 'th').map(textOf);
    expect(th).toEqual(['item', 'tool', 'decision', 'by', 'note', 'reason', 'decided_at', 'cost']);
  });
});
