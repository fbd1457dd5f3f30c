import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedBrowser, type SharedBrowser, signedInPage } from './support/browser.js';
import { webFixture, type WebFixture } from './support/web-fixture.js';
import { runCliChild } from '../support/cli.js';

const CSV = ['id,question', 'plain,Plain @duration=40', 'late,Late @duration=40'].join('\n');

describe("the item page's run times in a real browser", () => {
  let f: WebFixture;
  let browser: SharedBrowser;
  beforeAll(async () => {
    [f, browser] = await Promise.all([webFixture({ csv: CSV, name: 'times' }), sharedBrowser()]);
    // As a resume records a run it found ended with no service times (the simulator sends them; this batch's run is marked so).
    const db = new Database(join(f.dir, 'resq.db'));
    db.prepare("UPDATE runs SET seconds = NULL, unwatched = 1 WHERE item_id = 'late'").run();
    db.close();
  }, 60_000);
  afterAll(async () => {
    await browser?.release();
    await f?.close();
  });

  it('shows the length show gives, and a run that ended while resq was stopped as such', async () => {
    const db = join(f.dir, 'resq.db');
    const { page } = await signedInPage(browser, f.server, 'Ana');
    await page.goto(`${f.server.origin}/b/times/i/plain`);
    const took = (await page.locator('td.took').first().textContent({ timeout: 20_000 }))!;
    expect(took).toMatch(/^\d+\.\d s$/);
    expect((await runCliChild(['show', 'times', 'plain', '--db', db])).stdout).toContain(`: completed in ${took}`);
    await page.goto(`${f.server.origin}/b/times/i/late`);
    await page.waitForSelector('td.took');
    const row = (await page.locator('tbody tr').filter({ has: page.locator('td.took') }).first().textContent())!;
    expect(row).toContain('ended while resq was stopped, at or before');
    expect(await page.locator('td.took').first().textContent()).toBe('');
    expect((await runCliChild(['show', 'times', 'late', '--db', db])).stdout).toContain('completed (ended while resq was stopped, at or before');
  }, 60_000);
});
