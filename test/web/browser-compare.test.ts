// The compare page in Chromium at a laptop's 1,366 px: it fits (the answer diff wraps), old
// lines (-) come before new (+), decisions read as words, the batches are picked from a list,
// and a changed question is said as such. Two real batches run against the simulator.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type Sim } from '../../src/sim/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { startWebServer, type WebServer } from '../../src/web/server.js';
import { tempDir } from '../support/cli.js';
import { runCsvBatch } from '../support/two-batches.js';
import { screenshot, sharedBrowser, type SharedBrowser, watchedPage } from './support/browser.js';

const LONG = `a long question whose answer quotes it ${'word '.repeat(60)}and one unbroken token ${'x'.repeat(300)}`;
const BEFORE = `id,question\nsame,plain\nplan,plan @confirm=5\npick,pick @choice\nlong,"${LONG}"\nasked,What is the boiling point of water?\n`;
const AFTER = `id,question\nsame,plain\nplan,plan @confirm=5\npick,pick @choice\nlong,"${LONG} and more"\nasked,What is the boiling point of water at altitude?\n`;

describe('the compare page in a real browser', () => {
  let sim: Sim;
  let store: Store;
  let server: WebServer;
  let browser: SharedBrowser;
  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 20 });
    const dir = tempDir('resq-web-compare-');
    store = await openStore(join(dir, 'resq.db'));
    await runCsvBatch(sim, store, dir, 'before', BEFORE, { confirm_scope: { approve_max_cost: 10 }, ask_choice: { prefer: ['b'] } });
    await runCsvBatch(sim, store, dir, 'after', AFTER, { confirm_scope: { approve_max_cost: 1, otherwise: 'decline' }, ask_choice: { prefer: ['a'] } });
    [server, browser] = await Promise.all([startWebServer({ store, port: 0 }), sharedBrowser()]);
  }, 60_000);
  afterAll(async () => {
    await browser?.release();
    await server?.close();
    await store?.close();
    await sim?.close();
  });

  it('picks the batches from a list, fits 1,366 px, says - before +, decisions in words and a changed question', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1366, height: 768 } });
    const { page, errors } = await watchedPage(ctx);
    await page.goto(server.loginUrl());
    await page.goto(`${server.origin}/compare`);
    await page.waitForSelector('#compare-form select[name=a]');
    // Both batches offered in each list; nothing to type.
    expect(await page.locator('#compare-form input[type=text], #compare-form input:not([type])').count()).toBe(0);
    for (const s of ['a', 'b']) expect(await page.locator(`#compare-form select[name=${s}] option`).evaluateAll((os) => os.map((o) => (o as unknown as { value: string }).value).sort())).toEqual(['after', 'before']);
    await page.selectOption('#compare-form select[name=a]', 'before');
    await page.selectOption('#compare-form select[name=b]', 'after');
    await page.click('#compare-form button[type=submit]');
    await page.waitForSelector('#compare-table');
    expect(page.url()).toMatch(/[?&]a=before&b=after/);
    await screenshot(page, 'compare-1366');

    // It fits the window: nothing wider than the viewport, the diff wrapped, not cut off.
    const widths = await page.evaluate(() => {
      const d = (globalThis as unknown as { document: { documentElement: { scrollWidth: number }; getElementById(id: string): { getBoundingClientRect(): { right: number } } } }).document;
      return { doc: d.documentElement.scrollWidth, view: (globalThis as unknown as { innerWidth: number }).innerWidth, table: d.getElementById('compare-table').getBoundingClientRect().right };
    });
    expect(widths.doc).toBeLessThanOrEqual(widths.view);
    expect(widths.table).toBeLessThanOrEqual(widths.view);

    const row = (id: string) => page.locator(`#compare-table tr[data-id="${id}"]`);
    const rows = await page.locator('#compare-table tbody tr').evaluateAll((rs) => rs.map((r) => r.getAttribute('data-id')));
    expect(rows).toEqual(expect.arrayContaining(['plan', 'pick', 'long', 'asked']));
    expect(rows).not.toContain('same');

    // Decisions in words, each with who made it; no JSON.
    const plan = await row('plan').locator('ul.decisions li').allTextContents();
    expect(plan).toEqual(['confirm_scope: approved by the policy', 'confirm_scope: declined by the policy']);
    const pick = await row('pick').locator('ul.decisions li').allTextContents();
    expect(pick).toEqual(['ask_choice: chose b by the policy', 'ask_choice: chose a by the policy']);
    expect(await page.locator('#compare-table').textContent()).not.toMatch(/[{}]/);

    // A changed question is said as such, old first.
    const asked = row('asked').locator('.question-changed');
    expect(await asked.locator('strong').textContent()).toBe('Question changed');
    expect(await asked.locator('pre.diff span').allTextContents()).toEqual(['- What is the boiling point of water?\n', '+ What is the boiling point of water at altitude?\n']);
    expect(await row('plan').locator('.question-changed').count()).toBe(0);
    expect(await page.textContent('#compare-counts')).toContain('question changed 2');

    // In every answer diff a changed stretch lists its old lines before its new ones.
    for (const pre of await page.locator('#compare-table pre.diff').all()) {
      const ops = (await pre.locator('span').allTextContents()).map((t) => t[0]);
      for (let i = 1; i < ops.length; i++) expect(`${ops[i - 1]}${ops[i]}`).not.toBe('+-');
    }
    expect(await page.textContent('main')).not.toMatch(/null|undefined/);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('opens on the two newest batches compared, with no click; the pickers choose others (a name in the address is kept)', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1366, height: 768 } });
    const { page, errors } = await watchedPage(ctx);
    await page.goto(server.loginUrl());
    await page.goto(`${server.origin}/compare`);
    await page.waitForSelector('#compare-table');
    expect(page.url()).toBe(`${server.origin}/compare`);
    expect([await page.inputValue('#compare-form select[name=a]'), await page.inputValue('#compare-form select[name=b]')]).toEqual(['before', 'after']);
    expect(await page.textContent('#compare-counts')).toMatch(/only in before · 0 only in after · .*question changed 2/);
    expect(await page.locator('#compare-table th').allTextContents()).toEqual(['Item', 'before (-)', 'after (+)', 'What changed']);
    await page.goto(`${server.origin}/compare?a=after&b=before`);
    await page.waitForSelector('#compare-table');
    expect([await page.inputValue('#compare-form select[name=a]'), await page.inputValue('#compare-form select[name=b]')]).toEqual(['after', 'before']);
    expect(await page.locator('#compare-table th').allTextContents()).toEqual(['Item', 'after (-)', 'before (+)', 'What changed']);
    expect(errors).toEqual([]);
    await ctx.close();
  });
});

describe('the compare page with fewer than two batches (real browser)', () => {
  it('says plainly there is no batch, then that there is only one, and compares nothing', async () => {
    const sim = await startSim({ defaultDurationMs: 20 });
    const dir = tempDir('resq-web-compare-one-');
    const store = await openStore(join(dir, 'resq.db'));
    const [server, browser] = await Promise.all([startWebServer({ store, port: 0 }), sharedBrowser()]);
    try {
      const { page, errors } = await watchedPage(await browser.newContext({ viewport: { width: 1366, height: 768 } }));
      await page.goto(server.loginUrl());
      await page.goto(`${server.origin}/compare`);
      await page.waitForSelector('#compare-none');
      expect(await page.textContent('#compare-none')).toBe('No batch in this database yet: there is nothing to compare.');
      await runCsvBatch(sim, store, dir, 'only', 'id,question\nq1,plain\n', null);
      await page.goto(`${server.origin}/compare`);
      await page.waitForSelector('#compare-only-one');
      expect(await page.textContent('#compare-only-one')).toBe('There is only one batch in this database (only): run another to compare it with.');
      expect(await page.locator('#compare-table, #compare-counts').count()).toBe(0);
      expect(await page.locator('#compare-form select[name=b] option').allTextContents()).toEqual([expect.stringMatching(/^only — 1 items, /)]);
      expect(errors).toEqual([]);
    } finally {
      await browser.release();
      await server.close();
      await store.close();
      await sim.close();
    }
  }, 60_000);
});

describe('the compare page with verdicts (real browser)', () => {
  it('shows the counts per scorer with the McNemar line, then the regressed items, then the fixed, each linked to the item', async () => {
    const sim = await startSim({ defaultDurationMs: 20 });
    const dir = tempDir('resq-web-compare-verdicts-');
    const store = await openStore(join(dir, 'resq.db'));
    const csv = 'id,question\nr1,one\nr2,two\nfix,three\nok,four\n';
    const a = await runCsvBatch(sim, store, dir, 'before', csv, null);
    const b = await runCsvBatch(sim, store, dir, 'after', csv, null);
    const v = (scorer: string, pass: boolean, reason: string, version = 'v1') => ({ scorer, version, pass, score: pass ? 1 : 0, reason, scoredAt: '2026-01-01T00:00:00.000Z', by: 'includes' });
    for (const [id, inA, inB] of [['r1', true, false], ['r2', true, false], ['fix', false, true], ['ok', true, true]] as const) {
      await store.recordVerdicts(a.id, id, [v('mentions', inA, `before: ${inA}`), v('exact', true, 'same')]);
      await store.recordVerdicts(b.id, id, [v('mentions', inB, `after <b>${inB}</b>`), v('exact', true, 'same', 'v2')]);
    }
    const [server, browser] = await Promise.all([startWebServer({ store, port: 0 }), sharedBrowser()]);
    try {
      const { page, errors } = await watchedPage(await browser.newContext({ viewport: { width: 1366, height: 768 } }));
      await page.goto(server.loginUrl());
      await page.goto(`${server.origin}/compare?a=before&b=after`);
      await page.waitForSelector('#compare-scorers');
      await screenshot(page, 'compare-verdicts-1366');
      const cells = (scorer: string) => page.locator(`#compare-scorers tr[data-scorer="${scorer}"] td`).allTextContents();
      expect((await cells('mentions')).slice(1)).toEqual(['2', '1', '1', '0', '0', 'could be chance (exact McNemar p = 1.0)']);
      expect(await page.locator('#compare-scorers tr[data-scorer="exact"] .versions-differ').textContent()).toBe('versions differ: v1 in before, v2 in after');
      expect(await page.locator('#compare-scorers tr[data-scorer="mentions"] .versions-differ').count()).toBe(0);
      // Regressions first, then the fixed, then the other changes.
      const order = await page.locator('#compare-verdicts, #compare-regressed, #compare-fixed, #compare-table').evaluateAll((els) => els.map((e) => e.id));
      expect(order.slice(0, 3)).toEqual(['compare-verdicts', 'compare-regressed', 'compare-fixed']);
      expect(await page.locator('#compare-regressed tbody tr').evaluateAll((rs) => rs.map((r) => r.getAttribute('data-id')))).toEqual(['r1', 'r2']);
      expect(await page.locator('#compare-fixed tbody tr').evaluateAll((rs) => rs.map((r) => r.getAttribute('data-id')))).toEqual(['fix']);
      expect(await page.locator('#compare-regressed tr[data-id="r1"] td').allTextContents()).toEqual(['r1', 'mentions', 'passed — before: true', 'failed — after <b>false</b>']);
      expect(await page.locator('#compare-regressed b').count()).toBe(0);
      expect(await page.locator('#compare-regressed tr[data-id="r1"] a').getAttribute('href')).toBe('/b/after/i/r1');
      expect(errors).toEqual([]);
    } finally {
      await browser.release();
      await server.close();
      await store.close();
      await sim.close();
    }
  }, 60_000);
});
