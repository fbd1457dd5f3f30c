import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerWaiting } from '../support/answer-waiting.js';
import { spendWith } from '../support/spending-with.js';
import { screenshot, sharedBrowser, type SharedBrowser, watchedPage } from './support/browser.js';
import { webFixture, type WebFixture } from './support/web-fixture.js';

const pwned = () => (globalThis as unknown as { __resqPwned?: string }).__resqPwned ?? null;

describe('the batch page: spend against the budget, and the rule that would have decided these (real browser)', () => {
  let f: WebFixture;
  let browser: SharedBrowser;
  beforeAll(async () => {
    [f, browser] = await Promise.all([webFixture({ name: 'spend' }), sharedBrowser()]);
    const policy = { confirm_scope: { approve_max_cost: 10, batch_budget: 120, otherwise: 'hold' } };
    await f.store.updateBatchSettings(f.batch.id, f.batch.settings, policy, f.batch.baseUrl);
    await answerWaiting(f.store, f.batch, 'plan', { kind: 'approve' }, { person: 'ann' });
    await answerWaiting(f.store, f.batch, 'image', { kind: 'decline' }, { person: 'ann' });
  }, 60_000);
  afterAll(async () => {
    await browser?.release();
    await f?.close();
  });

  it('shows the approved cost as a bar against the batch budget, and proposes the rule from the people’s decisions', async () => {
    const ctx = await browser.newContext();
    const { page, dialogs, errors } = await watchedPage(ctx);
    await page.goto(f.server.loginUrl());
    await page.goto(`${f.server.origin}/b/spend`);
    await page.waitForSelector('#spend-bar');
    expect(await page.textContent('#spend-text')).toBe('spent 50 of the batch budget 120 (42%)');
    expect(await page.getAttribute('#spend-bar', 'value')).toBe('50');
    expect(await page.getAttribute('#spend-bar', 'max')).toBe('120');

    // Hostile ids typed in come back as text, never as markup.
    await page.fill('#rule-items', 'plan,image,<img src=x onerror="window.__resqPwned=1">');
    await page.click('#rule-go');
    await page.waitForSelector('#rule-yaml');
    expect(await page.textContent('#rule-yaml')).toBe('confirm_scope:\n  approve_max_cost: 50\n  otherwise: hold\nrequest_quality_image: decline\n');
    expect(await page.textContent('#rule-agrees')).toBe('It decides 2 of these 2 pauses as the people did. Try it on a whole batch first: resq policy check POLICY --batch spend');
    expect(await page.locator('#rule-notes li').allTextContents()).toEqual([
      'confirm_scope: 1 plan approved, 0 declined: approve up to 50, hold above',
      'request_quality_image: 1 image: every one declined',
    ]);
    expect(await page.textContent('#rule-skipped')).toBe('No pause decided by a person: <img src=x onerror="window.__resqPwned=1">');
    expect(await page.locator('#rule-out img').count()).toBe(0);
    expect(await page.evaluate(pwned)).toBeNull();
    await screenshot(page, 'spend-rule');

    // Items no person decided: said so.
    await page.fill('#rule-items', 'plain');
    await page.click('#rule-go');
    await page.waitForSelector('#rule-none');
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it("counts what the batch's agent judge approved in the bar: the budget is theirs together", async () => {
    await spendWith(f.store, f.batch.id, 30);
    const ctx = await browser.newContext();
    const { page, dialogs, errors } = await watchedPage(ctx);
    await page.goto(f.server.loginUrl());
    await page.goto(`${f.server.origin}/b/spend`);
    await page.waitForSelector('#spend-bar');
    expect(await page.textContent('#spend-text')).toBe('spent 80 of the batch budget 120 (67%), 30 of it by its agent judge');
    expect(await page.getAttribute('#spend-bar', 'value')).toBe('80');
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
    await ctx.close();
  });
});
