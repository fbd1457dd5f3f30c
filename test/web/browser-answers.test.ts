import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportRows } from '../../src/runner/index.js';
import { screenshot, sharedBrowser, type SharedBrowser, signedInPage, until } from './support/browser.js';
import { runningBatch, type RunningBatch } from './support/running-batch.js';

// Three pauses for a person, and a long question that keeps the worker attached while they answer.
const CSV = ['id,question', 'plan,Costly plan @confirm=50', 'multi,Pick routes @choice=multi', 'image,Pretty figure @image', 'long,Long question @duration=45s'].join('\n');

describe('answering pauses in a real browser', () => {
  let b: RunningBatch;
  let browser: SharedBrowser;
  beforeAll(async () => {
    [b, browser] = await Promise.all([runningBatch(CSV, { name: 'answers', concurrency: 4 }), sharedBrowser()]);
    await until(async () => (await b.store.itemCounts(b.batch.id)).held === 3, 30_000, 'three held pauses');
  }, 60_000);
  afterAll(async () => {
    await browser?.release();
    await b?.close();
  });

  const pageAs = (person: string) => signedInPage(browser, b.server, person);

  const itemUrl = (id: string) => `${b.server.origin}/b/answers/i/${id}`;

  it('a person approves a plan, picks two options, declines an image; the worker carries each on; the export names them', async () => {
    const grace = await pageAs('Grace');
    // Bob opens the plan too, before Grace answers it.
    const bob = await pageAs('Bob');
    await bob.page.goto(itemUrl('plan'));
    await bob.page.waitForSelector('form.answer button.approve');

    await grace.page.goto(itemUrl('plan'));
    expect(await grace.page.textContent('.pause')).toContain('Narrow alternative');
    expect(await grace.page.textContent('.pause .cost')).toBe('50');
    await grace.page.click('form.answer button.approve');
    await grace.page.waitForSelector('.decision');
    expect(await grace.page.textContent('.decision')).toContain('Answered by a person: Grace');

    await grace.page.goto(itemUrl('multi'));
    await grace.page.check('form.answer input[value=a]');
    await grace.page.check('form.answer input[value=b]');
    await screenshot(grace.page, 'item-choice');
    await grace.page.click('form.answer button.choose');
    await grace.page.waitForSelector('.decision');

    await grace.page.goto(itemUrl('image'));
    await grace.page.click('form.answer button.decline');
    await grace.page.waitForSelector('.decision');

    // Bob's page still shows the form: his answer is refused, naming who answered.
    await bob.page.click('form.answer button.approve');
    await bob.page.waitForSelector('.refused');
    expect(await bob.page.textContent('.refused')).toMatch(/already answered by Grace.*\(answered by Grace, /);
    await screenshot(bob.page, 'item-refused');

    // The running worker sends each answer and the runs go on to the end.
    await until(async () => {
      const c = await b.store.itemCounts(b.batch.id);
      return c.completed >= 3 && c.held === 0;
    }, 60_000, 'the three answered items completed');
    const rows = [];
    for await (const r of exportRows(b.store, b.batch)) rows.push(r);
    const by = Object.fromEntries(rows.map((r) => [r.id, r]));
    expect(by.plan!.decisions).toMatchObject([{ tool: 'confirm_scope', answer: { approved: true }, by: 'person', person: 'Grace' }]);
    expect(by.multi!.decisions).toMatchObject([{ tool: 'ask_choice', answer: { decision: 'chosen', chosen: ['a', 'b'] }, by: 'person', person: 'Grace' }]);
    expect(by.image!.decisions).toMatchObject([{ tool: 'request_quality_image', answer: { approved: false }, by: 'person', person: 'Grace' }]);
    expect(by.plan!.text).toContain('confirm_scope: approved');
    expect(by.multi!.text).toContain('ask_choice: chosen a,b');
    expect(b.sim.counters().respondRuns).toBe(3);

    await grace.page.goto(itemUrl('multi'));
    await grace.page.waitForSelector('#answer');
    expect(await grace.page.textContent('#answer')).toContain('chosen a,b');
    await screenshot(grace.page, 'item-answered');
    expect([...grace.dialogs, ...bob.dialogs]).toEqual([]);
    expect([...grace.errors, ...bob.errors]).toEqual([]);
  });
});
