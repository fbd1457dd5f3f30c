import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, sharedBrowser, type SharedBrowser, until, watchedPage } from './support/browser.js';
import { runningBatch, type RunningBatch } from './support/running-batch.js';

// Ten plans costing 60…150 held by a policy that approves up to 50; three cheap ones it
// approves; a huge plan (hostile text in its question) and a choice held too; a long question
// keeps the worker attached while the person answers.
const PLANS = Array.from({ length: 10 }, (_, i) => `plan${i + 1},Plan ${i + 1} @confirm=${60 + 10 * i},lab${i % 2}`);
const CSV = [
  'id,question,lab',
  ...PLANS,
  'cheap1,Cheap @confirm=10,lab0',
  'cheap2,Cheap @confirm=20,lab1',
  'cheap3,Cheap @confirm=30,lab0',
  'huge,"Huge <img src=x onerror=alert(1)> plan @confirm=900",lab0',
  'pick,Pick @choice,lab1',
  'long,Long question @duration=45s,lab0',
].join('\n');
const TEN = PLANS.map((l) => l.split(',')[0]!);
const TEN_COST = 1050;

describe('decisions in bulk in a real browser', () => {
  let b: RunningBatch;
  let browser: SharedBrowser;
  beforeAll(async () => {
    [b, browser] = await Promise.all([runningBatch(CSV, { name: 'bulk', concurrency: 6, policy: { confirm_scope: { approve_max_cost: 50 } } }), sharedBrowser()]);
    await until(async () => (await b.store.itemCounts(b.batch.id)).held === 12, 30_000, 'twelve held pauses');
  }, 60_000);
  afterAll(async () => {
    await browser?.release();
    await b?.close();
  });

  it('a person selects the ten held plans by cost range, confirms (count and total cost), and each gets its own decision with her name', async () => {
    const w = await watchedPage(await browser.newContext());
    const { page } = w;
    await page.goto(b.server.loginUrl());
    await page.fill('#person', 'Grace');
    await page.locator('#person').dispatchEvent('change');
    await page.goto(`${b.server.origin}/b/bulk`);

    // Every held item is listed, none selected; the hostile question is text.
    await until(async () => (await page.locator('#bulk-table tbody tr').count()) === 12, 10_000, 'the held list');
    expect(await page.textContent('#bulk-total')).toBe('0 selected of 12 listed · total cost 0');
    expect(await page.textContent('#bulk-table tr[data-id=huge]')).toContain('<img src=x onerror=alert(1)>');

    // By cost range: 60 to 500 selects exactly the ten plans.
    await page.fill('#bulk-filter input[name=bulk-minCost]', '60');
    await page.fill('#bulk-filter input[name=bulk-maxCost]', '500');
    await page.click('#bulk-select');
    await until(async () => (await page.locator('#bulk-table tbody tr').count()) === 10, 10_000, 'the ten plans');
    const ids = await page.locator('#bulk-table tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')));
    expect(ids).toEqual(TEN);
    expect(await page.textContent('#bulk-total')).toBe(`10 selected of 10 listed · total cost ${TEN_COST}`);

    await page.fill('#bulk-note', 'within the quarter');
    await page.click('#bulk-approve');
    await page.waitForSelector('#bulk-confirm .confirm');
    expect(await page.textContent('#bulk-confirm .confirm span')).toBe(`Approve 10 held item(s), total cost ${TEN_COST}? Each gets its own decision, recorded as Grace.`);
    await screenshot(page, 'bulk-confirm');
    // Nothing is recorded before the person says yes.
    for (const id of TEN) expect(await b.store.decisionsForItem(b.batch.id, id), id).toEqual([]);
    await page.click('#bulk-confirm .confirm button.danger');
    await page.waitForSelector('#bulk-answered');
    expect(await page.textContent('#bulk-answered')).toContain(`Answered 10 item(s) as Grace, total cost ${TEN_COST}.`);
    expect(await page.locator('#bulk-skipped').count()).toBe(0);
    await screenshot(page, 'bulk-answered');

    // The store: one decision each, by Grace, with her note; the others untouched.
    for (const [i, id] of TEN.entries()) {
      const d = await b.store.decisionsForItem(b.batch.id, id);
      expect(d, id).toHaveLength(1);
      expect(d[0], id).toMatchObject({ tool: 'confirm_scope', by: 'person', person: 'Grace', answer: { approved: true }, reason: 'within the quarter', cost: 60 + 10 * i });
    }
    expect(await b.store.decisionsForItem(b.batch.id, 'huge')).toEqual([]);
    expect(await b.store.decisionsForItem(b.batch.id, 'pick')).toEqual([]);
    // From the bulk decision, the rule that would have decided these ten: approve plans up to 150.
    await page.click('#bulk-rule');
    await page.waitForSelector('#rule-yaml');
    expect(await page.inputValue('#rule-items')).toBe(TEN.join(','));
    expect(await page.textContent('#rule-yaml')).toMatch(/confirm_scope:\s+approve_max_cost: 150/);
    expect(await page.textContent('#rule-agrees')).toContain('It decides 10 of these 10 pauses as the people did.');
    // The attached worker sends each answer and the ten complete.
    await until(async () => {
      const states = await Promise.all(TEN.map(async (id) => (await b.store.getItem(b.batch.id, id))?.state));
      return states.every((s) => s === 'completed');
    }, 60_000, 'the ten plans completed');
    expect(w.dialogs).toEqual([]);
    expect(w.errors).toEqual([]);
  });

  it('names an item another person answered meanwhile and skips it', async () => {
    const ada = await watchedPage(await browser.newContext());
    await ada.page.goto(b.server.loginUrl());
    await ada.page.fill('#person', 'Ada');
    await ada.page.locator('#person').dispatchEvent('change');
    await ada.page.goto(`${b.server.origin}/b/bulk`);
    await until(async () => (await ada.page.locator('#bulk-table tbody tr').count()) === 2, 10_000, 'the two still held');
    await ada.page.check('#bulk-all');
    expect(await ada.page.textContent('#bulk-total')).toBe('2 selected of 2 listed · total cost 900');
    await ada.page.click('#bulk-decline');
    expect(await ada.page.textContent('#bulk-confirm .confirm span')).toContain('Decline 2 held item(s) (their cost 900 is not spent)?');
    // Bob declines the huge plan from his own page while Ada's confirmation is open.
    const bob = await fetch(`${b.server.origin}/api/batches/bulk/items/huge/answer`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${b.server.token}` }, body: JSON.stringify({ person: 'Bob', runId: (await b.store.getItem(b.batch.id, 'huge'))!.runId, reply: { kind: 'decline' } }) });
    expect(bob.status).toBe(200);
    await ada.page.click('#bulk-confirm .confirm button.danger');
    await ada.page.waitForSelector('#bulk-skipped');
    expect(await ada.page.textContent('#bulk-answered')).toContain('Answered 1 item(s) as Ada');
    expect(await ada.page.textContent('#bulk-skipped')).toMatch(/huge — answered by Bob, /);
    expect((await b.store.decisionsForItem(b.batch.id, 'huge')).map((d) => d.person)).toEqual(['Bob']);
    expect((await b.store.decisionsForItem(b.batch.id, 'pick')).map((d) => [d.person, d.answer])).toEqual([['Ada', { decision: 'declined' }]]);
    expect(ada.dialogs).toEqual([]);
    expect(ada.errors).toEqual([]);
  });
});
