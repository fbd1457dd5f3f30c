import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, sharedBrowser, type SharedBrowser, signedInPage, until } from './support/browser.js';
import { runningBatch, type RunningBatch } from './support/running-batch.js';

// t1 pauses on a plan costing 1, then (once answered) on one costing 99,999; two plans under a
// batch budget of 150 that no policy approves; a long question keeps the worker attached.
const CSV = ['id,question', 't1,plan @confirm=1 @confirm=99999', 'p100,plan @confirm=100', 'p88,plan @confirm=88', 'long,Long question @duration=45s'].join('\n');

describe('a decision for the pause the person saw, and the budget, in a real browser', () => {
  let b: RunningBatch;
  let browser: SharedBrowser;
  beforeAll(async () => {
    [b, browser] = await Promise.all([runningBatch(CSV, { name: 'seen', concurrency: 4, policy: { confirm_scope: { approve_max_cost: 0, batch_budget: 150 } } }), sharedBrowser()]);
    await until(async () => (await b.store.itemCounts(b.batch.id)).held === 3, 30_000, 'three held plans');
  }, 60_000);
  afterAll(async () => {
    await browser?.release();
    await b?.close();
  });

  const pageAs = (person: string) => signedInPage(browser, b.server, person);
  const itemUrl = (id: string) => `${b.server.origin}/b/seen/i/${id}`;
  const runOf = async (id: string) => (await b.store.getItem(b.batch.id, id))!.runId;

  it('A\'s page shows t1 at cost 1; B approves it and it pauses again at 99,999; A\'s approval is refused, nothing recorded, and the new pause shown in place', async () => {
    const a = await pageAs('A');
    await a.page.goto(itemUrl('t1'));
    await a.page.waitForSelector('form.answer button.approve');
    expect(await a.page.textContent('.pause .cost')).toBe('1');
    const seen = await runOf('t1');
    const bob = await fetch(`${b.server.origin}/api/batches/seen/items/t1/answer`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${b.server.token}` }, body: JSON.stringify({ person: 'B', runId: seen, reply: { kind: 'approve' } }) });
    expect(bob.status).toBe(200);
    // The worker sends B's answer; the run pauses again on the dear plan.
    const now = await until(async () => {
      const it = await b.store.getItem(b.batch.id, 't1');
      return it?.state === 'held' && it.runId !== seen ? it.runId : null;
    }, 30_000, 't1 held again');

    await a.page.click('form.answer button.approve');
    await a.page.waitForSelector('#pause-moved');
    expect(await a.page.textContent('#pause-moved')).toBe('t1 paused again since you saw it (cost 1 → 99,999): nothing recorded; resq show seen t1');
    // In place: the first pause decided by B, the new one with its cost and a form to answer it.
    expect(await a.page.locator('.pause').count()).toBe(2);
    expect(await a.page.textContent('.pause:nth-child(1) .decision')).toContain('Answered by a person: B');
    expect(await a.page.getAttribute('.pause:nth-child(2)', 'data-run')).toBe(now);
    expect(await a.page.textContent('.pause:nth-child(2) .cost')).toBe('99999');
    expect(await a.page.locator('.pause:nth-child(2) form.answer button.approve').count()).toBe(1);
    await screenshot(a.page, 'pause-moved');
    expect((await b.store.decisionsForItem(b.batch.id, 't1')).map((d) => [d.runId, d.person])).toEqual([[seen, 'B']]);
    expect((await b.store.getItem(b.batch.id, 't1'))!.state).toBe('held');
    expect(a.dialogs).toEqual([]);
    expect(a.errors).toEqual([]);
  });

  it('an approval that takes the batch past its budget asks again naming the new total; No records nothing, Yes records it as over', async () => {
    const a = await pageAs('A');
    await a.page.goto(itemUrl('p100'));
    await a.page.click('form.answer button.approve');
    await a.page.waitForSelector('.decision');
    expect(await b.store.approvedCost(b.batch.id)).toBe(101);

    await a.page.goto(itemUrl('p88'));
    await a.page.click('form.answer button.approve');
    await a.page.waitForSelector('.answer-confirm .confirm');
    expect(await a.page.textContent('.answer-confirm .confirm span')).toBe("Approving this (cost 88) takes the batch's approved cost from 101 to 189, past its budget 150 (126%). Approve anyway?");
    await screenshot(a.page, 'over-budget-confirm');
    await a.page.click('.answer-confirm .confirm button:not(.danger)');
    await a.page.waitForSelector('.answer-status .muted');
    expect(await a.page.textContent('.answer-status')).toBe('Not approved: nothing recorded.');
    expect(await b.store.decisionsForItem(b.batch.id, 'p88')).toEqual([]);

    await a.page.click('form.answer button.approve');
    await a.page.click('.answer-confirm .confirm button.danger');
    await a.page.waitForSelector('.decision .over-budget');
    expect(await a.page.textContent('.decision')).toContain('— over the batch budget, as confirmed');
    expect((await b.store.decisionsForItem(b.batch.id, 'p88')).map((d) => [d.person, d.overBudget])).toEqual([['A', true]]);
    expect(a.dialogs).toEqual([]);
    expect(a.errors).toEqual([]);
  });

  it('the bulk decline of a plan speaks of its cost not spent; the bulk approval past the budget asks again with the totals', async () => {
    const a = await pageAs('A');
    await a.page.goto(`${b.server.origin}/b/seen`);
    await until(async () => (await a.page.locator('#bulk-table tbody tr').count()) === 1, 10_000, 't1 listed');
    await a.page.check('#bulk-all');
    await a.page.click('#bulk-approve');
    await a.page.click('#bulk-confirm .confirm button.danger');
    await a.page.waitForSelector('#bulk-confirm .confirm');
    expect(await a.page.textContent('#bulk-confirm .confirm span')).toBe("Approving 1 held item(s) (cost 99999) takes the batch's approved cost from 189 to 100188, past its budget 150 (66792%). Approve anyway?");
    await a.page.click('#bulk-confirm .confirm button:not(.danger)');
    await a.page.waitForSelector('#bulk-not-approved');
    expect(await b.store.decisionsForItem(b.batch.id, 't1')).toHaveLength(1);

    await a.page.check('#bulk-all');
    await a.page.click('#bulk-decline');
    expect(await a.page.textContent('#bulk-confirm .confirm span')).toBe('Decline 1 plan(s) (their cost 99999 is not spent)? Each gets its own decision, recorded as A.');
    await a.page.click('#bulk-confirm .confirm button.danger');
    await a.page.waitForSelector('#bulk-answered');
    expect(await a.page.textContent('#bulk-answered')).toContain('Answered 1 item(s) as A, their cost 99999 not spent.');
    expect(await b.store.approvedCost(b.batch.id)).toBe(189);
    expect(a.dialogs).toEqual([]);
    expect(a.errors).toEqual([]);
  });
});
