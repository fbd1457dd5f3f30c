import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wilson } from '../../src/score/stats.js';
import type { Verdict } from '../../src/score/types.js';
import { screenshot, sharedBrowser, type SharedBrowser, until, watchedPage } from './support/browser.js';
import { webFixture, type WebFixture } from './support/web-fixture.js';

// A batch run against the simulator, its verdicts recorded as a scorer records them; the page
// shows the pass rates, filters the items by verdict, and shows an item's verdicts with their
// reasons as text (a hostile reason included).
const CSV = ['id,question', ...['a', 'b', 'c', 'd', 'e', 'f'].map((id) => `${id},What is ${id}?`)].join('\n');
const HOSTILE = `<img src=x onerror="window.__resqPwned='reason';alert(1)">`;
const pwned = () => (globalThis as unknown as { __resqPwned?: string }).__resqPwned ?? null;

const verdict = (pass: boolean | null, reason: string): Verdict => ({ scorer: 'mentions', version: 'v1', pass, score: pass === null ? null : Number(pass), reason, scoredAt: '2026-01-01T00:00:00.000Z', by: 'includes' });

describe('the pass rates, the verdict filter and an item’s verdicts in a real browser', () => {
  let f: WebFixture;
  let browser: SharedBrowser;
  beforeAll(async () => {
    [f, browser] = await Promise.all([webFixture({ csv: CSV, name: 'judged' }), sharedBrowser()]);
    for (const id of ['a', 'b', 'c']) await f.store.recordVerdicts(f.batch.id, id, [verdict(true, `mentions the answer of ${id}`)]);
    await f.store.recordVerdicts(f.batch.id, 'd', [verdict(false, HOSTILE)]);
    await f.store.recordVerdicts(f.batch.id, 'e', [verdict(null, 'no expected answer')]);
  }, 60_000);
  afterAll(async () => {
    await browser?.release();
    await f?.close();
  });

  it('shows each scorer’s pass rate with its 95% interval, and its counts open the items it passed, failed or left unscored', async () => {
    const { page, dialogs, errors } = await watchedPage(await browser.newContext());
    await page.goto(f.server.loginUrl());
    await page.goto(`${f.server.origin}/b/judged`);
    const row = page.locator('#scores tr[data-scorer="mentions"]');
    await row.waitFor();
    const ci = wilson(3, 4)!;
    expect(await row.locator('td').allTextContents()).toEqual(['mentions', '75.0%', `${(ci.low * 100).toFixed(1)}–${(ci.high * 100).toFixed(1)}%`, '3', '1', '2']);
    await screenshot(page, 'scores');
    await row.locator('a.verdict-failed').click();
    await page.waitForURL(/verdict=failed/);
    await page.locator('#items-table').waitFor();
    expect(await page.locator('#items-table tbody tr').evaluateAll((rs) => rs.map((r) => r.getAttribute('data-id')))).toEqual(['d']);
    expect(await page.locator('#verdict-scorer').inputValue()).toBe('mentions');
    expect(await page.locator('#verdict-is').inputValue()).toBe('failed');
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('filters the items by verdict from the filter form, server-paged: unscored is a completed item with no pass or fail', async () => {
    const { page } = await watchedPage(await browser.newContext());
    await page.goto(f.server.loginUrl());
    await page.goto(`${f.server.origin}/b/judged?limit=10`);
    await page.locator('#verdict-scorer').selectOption('mentions');
    await page.locator('#verdict-is').selectOption('unscored');
    await page.locator('#filters button[type="submit"]').click();
    await page.waitForURL(/verdict=unscored/);
    const ids = async () => page.locator('#items-table tbody tr').evaluateAll((rs) => rs.map((r) => r.getAttribute('data-id')));
    expect(await ids()).toEqual(['e', 'f']);
    // Passed, two a page: the pager walks the filtered items.
    await page.goto(`${f.server.origin}/b/judged?scorer=mentions&verdict=passed&limit=2`);
    expect(await ids()).toEqual(['a', 'b']);
    await page.locator('#next-page').click();
    await page.waitForURL(/after=/);
    expect(await ids()).toEqual(['c']);
    expect(new URL(page.url()).searchParams.get('verdict')).toBe('passed');
    await page.goto(`${f.server.origin}/b/judged?scorer=mentions&verdict=passed`);
    expect(new URL(page.url()).search).toBe('?scorer=mentions&verdict=passed');
    const r = await page.goto(`${f.server.origin}/b/judged?scorer=nope&verdict=passed`);
    expect(r?.status()).toBe(400);
    expect(await page.locator('#items-error').textContent()).toBe('query: scorer: no scorer "nope" judges this batch (scorers: mentions)');
  });

  it('shows an item’s verdicts with their reasons as text: a hostile reason is shown, never run', async () => {
    const { page, dialogs, errors } = await watchedPage(await browser.newContext());
    await page.goto(f.server.loginUrl());
    await page.goto(`${f.server.origin}/b/judged/i/d`);
    const row = page.locator('#verdicts tr[data-scorer="mentions"]');
    await row.waitFor();
    expect(await row.locator('td').allTextContents()).toEqual(['mentions', 'failed', '0', HOSTILE, 'includes', expect.any(String)]);
    expect(await page.locator('#verdicts img').count()).toBe(0);
    await page.waitForLoadState('networkidle');
    expect(await page.evaluate(pwned)).toBeNull();
    await page.goto(`${f.server.origin}/b/judged/i/e`);
    await until(async () => (await page.locator('#verdicts tr[data-scorer="mentions"] td').allTextContents()).includes('unscored'), 10_000, 'the unscored verdict');
    expect(await page.locator('#verdicts .reason').textContent()).toBe('no expected answer');
    await page.goto(`${f.server.origin}/b/judged/i/f`);
    await page.locator('h2', { hasText: 'Pauses' }).waitFor();
    expect(await page.locator('#verdicts').count()).toBe(0);
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
  });
});
