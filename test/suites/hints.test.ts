import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventHint, type EventDoc } from '../../src/notify/events.js';
import { slackText } from '../../src/notify/slack.js';
import { openStore, type Store } from '../../src/store/index.js';
import { commandHint } from '../../src/text/command-hint.js';
import { startWebServer, type WebServer } from '../../src/web/server.js';
import { tempDir } from '../support/cli.js';
import { runInProcess } from '../support/in-process-cli.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { shSplit } from '../support/sh-split.js';
import { sharedBrowser, type SharedBrowser, watchedPage } from '../web/support/browser.js';

// Every command resq suggests, walked with a batch named `two words;x` in a database whose path
// holds a space: each hint, as the CLI prints it, the JSON API sends it, the page shows it and a
// notification carries it, is split by a real /bin/sh back into exactly the intended words, with
// the --db it needs.

const BATCH = 'two words;x';
const ODD_ITEM = "it's 2";

/**
 * Checks that `text` holds a command a shell splits into exactly `argv`, followed by nothing
 * that would run with it (the end of the line, a closing backtick or parenthesis, or prose).
 */
function expectHint(text: string, argv: string[]): void {
  const hint = commandHint(argv);
  expect(shSplit(hint)).toEqual(argv);
  const at = text.indexOf(hint);
  expect(at, `no hint splitting into ${JSON.stringify(argv)} in:\n${text}`).toBeGreaterThanOrEqual(0);
  const after = text.slice(at + hint.length, at + hint.length + 2);
  expect(after === '' || /^(\n|`|\)| [^-'"$])/.test(after), `the hint goes on with ${JSON.stringify(after)}`).toBe(true);
}

describe('every suggested command is pasteable: a batch named `two words;x`, a database in "my dir"', () => {
  let root: string;
  let db: string;
  let csv: string;
  let receiver: Receiver;
  let store: Store;
  let server: WebServer;
  let browser: SharedBrowser;
  const run: { stdout: string; code: number } = { stdout: '', code: -1 };
  const resume = () => ['resq', 'resume', BATCH, '--db', db];

  beforeAll(async () => {
    root = tempDir('resq-hints-');
    mkdirSync(join(root, 'my dir'));
    db = join(root, 'my dir', 'hints.db');
    csv = join(root, 'my dir', 'questions.csv');
    writeFileSync(csv, ['id,question', 'plan,Costly plan @confirm=30', `"${ODD_ITEM}",Another plan @confirm=40`, 'doomed,Doomed @fail', 'fine,Plain question'].join('\n'));
    [receiver, browser] = await Promise.all([startReceiver(), sharedBrowser()]);
    const r = await runInProcess(['run', csv, '--db', db, '--batch', BATCH, '--sim', '--out', join(root, 'out'), '--notify', receiver.url]);
    Object.assign(run, { stdout: r.stdout, code: r.code });
  }, 60_000);

  afterAll(async () => {
    await browser?.release();
    await server?.close();
    await store?.close();
    await receiver?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('the CLI: the run summary, show, answer (one and --held), status, a changed file and cancel', async () => {
    expect(run.code).toBe(1); // an item failed (and two are held for a person)
    // The pause the hint names is the one waiting now, as status --json lists it.
    const listed = JSON.parse((await runInProcess(['status', BATCH, '--db', db, '--json'])).stdout) as { heldItems: { id: string; runId: string | null }[] };
    const oddRun = listed.heldItems.find((h) => h.id === ODD_ITEM)!.runId!;
    // The summary names the first held item itself, with its run: no ITEM or RUN to fill in.
    expectHint(run.stdout, ['resq', 'show', BATCH, 'plan', '--db', db]);
    expectHint(run.stdout, ['resq', 'answer', BATCH, 'plan', '--run', listed.heldItems.find((h) => h.id === 'plan')!.runId!, '--approve', '--db', db]);
    expectHint(run.stdout, ['resq', 'show', BATCH, 'doomed', '--db', db]);

    const show = await runInProcess(['show', BATCH, ODD_ITEM, '--db', db]);
    expect(show.code).toBe(0);
    expectHint(show.stdout, ['resq', 'answer', BATCH, ODD_ITEM, '--run', oddRun, '--approve', '--db', db]);

    // An answer with no worker running: the command that sends it, as `resq answer` and then status and show say it.
    const answered = await runInProcess(['answer', BATCH, 'plan', '--approve', '--db', db]);
    expect(answered.code, answered.stderr).toBe(0);
    expectHint(answered.stdout, resume());
    expectHint((await runInProcess(['status', BATCH, '--db', db])).stdout, resume());
    expectHint((await runInProcess(['show', BATCH, 'plan', '--db', db])).stdout, resume());
    const held = await runInProcess(['answer', BATCH, '--held', '--items', ODD_ITEM, '--approve', '--db', db]);
    expect(held.code, held.stderr).toBe(0);
    expectHint(held.stdout, resume());

    // The question set grew: the --append hint carries what this command line needs.
    appendFileSync(csv, '\nlater,Added later');
    const changed = await runInProcess(['run', csv, '--db', db, '--batch', BATCH, '--sim']);
    expect(changed.code).toBe(2);
    expectHint(changed.stderr, ['resq', 'run', csv, '--append', '--batch', BATCH, '--db', db, '--sim']);
  });

  it('the JSON API over real HTTP: the batch, an item, a retry, the rule and compare', async () => {
    store = await openStore(db);
    server = await startWebServer({ store, port: 0, db });
    const auth = { Authorization: `Bearer ${server.token}` };
    const get = async (path: string) => (await fetch(`${server.origin}${path}`, { headers: auth })).json() as Promise<Record<string, any>>;
    const b = encodeURIComponent(BATCH);
    const overview = await get(`/api/batches/${b}`);
    expect(shSplit(overview.next.command)).toEqual(resume());
    expect(overview.next.text).toBe(`no worker running: ${overview.next.command}`);
    expect(shSplit((await get(`/api/batches/${b}/items/plan`)).next.command)).toEqual(resume());
    expect(shSplit((await get(`/api/batches/${b}/rule`)).check)).toEqual(['resq', 'policy', 'check', 'POLICY', '--batch', BATCH, '--db', db]);
    expect(shSplit((await get(`/api/compare?a=${b}&b=${b}`)).listAll)).toEqual(['resq', 'compare', BATCH, BATCH, '--json', '--db', db]);
    const retry = await fetch(`${server.origin}/api/batches/${b}/retry`, { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ items: ['doomed'] }) });
    expect(retry.status).toBe(200);
    expect(shSplit(((await retry.json()) as Record<string, any>).next.command)).toEqual(resume());
  });

  it('the page in a real browser: the batch, an answer waiting to be sent, the rule', async () => {
    const { page, errors } = await watchedPage(await browser.newContext());
    await page.goto(server.loginUrl());
    await page.goto(`${server.origin}/b/${encodeURIComponent(BATCH)}`);
    await page.waitForSelector('#eta');
    const eta = (await page.textContent('#eta'))!;
    expect(eta.startsWith('no ETA: no worker running: ')).toBe(true);
    expect(shSplit(eta.slice('no ETA: no worker running: '.length))).toEqual(resume());

    await page.click('#rule-go');
    await page.waitForSelector('#rule-agrees');
    const agrees = (await page.textContent('#rule-agrees'))!;
    expectHint(agrees, ['resq', 'policy', 'check', 'POLICY', '--batch', BATCH, '--db', db]);

    await page.goto(`${server.origin}/b/${encodeURIComponent(BATCH)}/i/plan`);
    await page.waitForSelector('.next-step code');
    expect(shSplit((await page.textContent('.next-step code'))!)).toEqual(resume());
    expect(errors).toEqual([]);
  });

  it('notifications: the held-items digest the run sent, as JSON and as a Slack message, and a stalled batch', async () => {
    const docs = receiver.requests.map((q) => JSON.parse(q.body) as EventDoc);
    const digest = docs.find((d) => d.type === 'items.held');
    expect(digest, JSON.stringify(docs)).toBeDefined();
    expect(shSplit(digest!.hint)).toEqual(['resq', 'status', BATCH, '--db', db]);
    expectHint(slackText(digest!), ['resq', 'status', BATCH, '--db', db]);
    const stalled = eventHint({ name: BATCH }, { type: 'batch.stalled', data: { reason: 'no live worker' } }, { db });
    expect(shSplit(stalled)).toEqual(resume());
  });

  it('cancel says how to undo it, pasteable', async () => {
    const cancelled = await runInProcess(['cancel', BATCH, '--db', db]);
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expectHint(cancelled.stdout, ['resq', 'retry', BATCH, '--cancelled', '--db', db]);
  });
});
