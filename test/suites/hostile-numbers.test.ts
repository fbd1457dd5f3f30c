import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePolicy } from '../../src/config/index.js';
import { openResults, planCostChart } from '../../src/notebook/index.js';
import type { EventDoc } from '../../src/notify/events.js';
import { Notifier } from '../../src/notify/sender.js';
import { slackText } from '../../src/notify/slack.js';
import { BatchRunner, loadBatch } from '../../src/runner/index.js';
import { startSim, type Sim } from '../../src/sim/index.js';
import { openStore, type BatchRecord, type Store } from '../../src/store/index.js';
import { startWebServer, type WebServer } from '../../src/web/server.js';
import { tempDir } from '../support/cli.js';
import { testClient, testSettings } from '../support/in-process.js';
import { runInProcess } from '../support/in-process-cli.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { sharedBrowser, type SharedBrowser, watchedPage } from '../web/support/browser.js';
import { bearer } from '../web/support/web-fixture.js';

// A simulator that sends what a careless or compromised service may: costs of 1e308 (two: their
// sum overflows), -140, text, NaN (as text: JSON has none), a 256 KB string, an input 3,000 levels
// deep, a choice that offers one id twice. Every window resq has must answer, show each cost as
// sent and marked, and keep every sum finite. Real HTTP, a real SQLite file, a real Chromium.

const CSV = [
  'id,question',
  'big1,Plan one @confirm=1e308',
  'big2,Plan two @confirm=1e308',
  'neg,Refund plan @confirm=-140',
  'words,Vague plan @confirm=about%2030%20credits',
  'nan,Odd plan @confirm=NaN',
  'huge,Huge plan @confirm=many%20credits @huge=256kb',
  'deep,Deep plan @confirm=1e13 @deep=3000',
  'fine,Fine plan @confirm=150',
  'twice,Pick a route @choice @repeat_options',
].join('\n');

// A policy that would approve anything up to 1e308: only the bound on trusted costs holds them.
const POLICY = { confirm_scope: { approve_max_cost: 1e308 } };
const BIG = '1e308 (untrusted: above 1e12)';
const FINITE = (n: unknown) => typeof n === 'number' && Number.isFinite(n);

describe('hostile numbers and lists from the service, in every window', () => {
  let sim: Sim;
  let store: Store;
  let db: string;
  let batch: BatchRecord;
  let server: WebServer;
  let receiver: Receiver;
  const api = async (path: string, init: RequestInit = {}) => {
    const r = await fetch(`${server.origin}${path}`, { ...init, headers: { ...bearer(server), 'Content-Type': 'application/json', ...(init.headers ?? {}) } });
    return { status: r.status, text: await r.text() };
  };

  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 10 });
    receiver = await startReceiver();
    const dir = tempDir('resq-hostile-numbers-');
    db = join(dir, 'resq.db');
    store = await openStore(db);
    const questions = join(dir, 'q.csv');
    writeFileSync(questions, CSV);
    const policy = parsePolicy(POLICY, 'p.yaml');
    const notify = { urls: [receiver.url], command: null, format: 'json' as const, includeQuestion: false, pageUrl: null, digestMs: 0, remindMs: null, stalledMs: null };
    ({ batch } = await loadBatch({ store, questions, name: 'hostile', settings: { ...testSettings(4), notify }, policy, baseUrl: sim.url }));
    const client = testClient(sim);
    try {
      await new BatchRunner({ store, client, batch, policy }).run();
    } finally {
      await client.close();
    }
    server = await startWebServer({ store, port: 0 });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await store?.close();
    await receiver?.close();
    await sim?.close();
  });

  it('no policy approves an untrusted cost: each is held with the cost as sent, marked; a trusted one is approved', async () => {
    const items = await store.listItems(batch.id, {});
    const reason = Object.fromEntries(items.map((i) => [i.id, [i.state, i.holdReason]]));
    expect(reason).toMatchObject({
      big1: ['held', `confirm_scope: cost ${BIG}: held for a person`],
      big2: ['held', `confirm_scope: cost ${BIG}: held for a person`],
      neg: ['held', 'confirm_scope: cost -140 (untrusted: negative): held for a person'],
      words: ['held', 'confirm_scope: cost "about 30 credits" (untrusted: not a number): held for a person'],
      nan: ['held', 'confirm_scope: cost "NaN" (untrusted: not a number): held for a person'],
      deep: ['held', 'confirm_scope: cost 10000000000000 (untrusted: above 1e12): held for a person'],
      fine: ['completed', null],
      twice: ['held', 'policy has no ask_choice rule: held for a person'],
    });
    expect(reason['huge']![1]).toMatch(/^confirm_scope: cost "many credits lorem[^"]{0,70}…" \(untrusted: not a number\): held for a person$/);
    expect(await store.approvedCost(batch.id)).toBe(150);
  });

  it('a person repeating an option id is refused before anything is sent: the CLI in one line (exit 2), the web with 400', async () => {
    const cli = await runInProcess(['answer', 'hostile', 'twice', '--choose', 'a,a', '--db', db]);
    expect(cli.code).toBe(2);
    expect(cli.stderr.trim().split('\n')).toEqual(['resq: --choose: a given more than once: name each option once']);
    const web = await api('/api/batches/hostile/items/twice/answer', { method: 'POST', body: JSON.stringify({ person: 'Ana', runId: (await store.getItem(batch.id, 'twice'))!.runId, reply: { kind: 'choose', ids: ['a', 'a'] } }) });
    expect(web.status).toBe(400);
    expect(web.text).toContain('a given more than once');
    expect((await store.getItem(batch.id, 'twice'))!.state).toBe('held');
    expect(await store.decisionsForItem(batch.id, 'twice')).toEqual([]);
  });

  it('a person may approve untrusted plans in bulk: the answer is 200, no sum counts them', async () => {
    const items = await Promise.all(['big1', 'big2', 'neg'].map(async (id) => ({ id, runId: (await store.getItem(batch.id, id))!.runId })));
    const r = await api('/api/batches/hostile/held/answer', { method: 'POST', body: JSON.stringify({ person: 'Ana', reply: { kind: 'approve' }, items }) });
    expect(r.status).toBe(200);
    const body = JSON.parse(r.text) as { answered: { id: string; cost: number | null }[]; totalCost: number };
    expect(body.answered.map((a) => [a.id, a.cost])).toEqual([['big1', null], ['big2', null], ['neg', null]]);
    expect(body.totalCost).toBe(0);
    const recorded = await store.decisionsForItem(batch.id, 'big1');
    expect(recorded.map((d) => [d.by, d.cost])).toEqual([['person', 0]]);
    expect(await store.approvedCost(batch.id)).toBe(150);
  });

  it('status: the text shows each cost as sent, marked; --json keeps every total finite', async () => {
    const text = await runInProcess(['status', 'hostile', '--db', db]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('cost "about 30 credits" (untrusted: not a number)');
    expect(text.stdout).toContain('nan: confirm_scope cost "NaN" (untrusted: not a number)');
    expect(text.stdout).toContain('twice: ask_choice options a,b,c');
    expect(text.stdout).toContain('cost approved: 150');
    expect(text.stdout).not.toMatch(/Infinity|NaN credits/);
    const json = await runInProcess(['status', 'hostile', '--db', db, '--json']);
    expect(json.code).toBe(0);
    const s = JSON.parse(json.stdout) as { approvedCost: number; heldItems: { id: string; untrustedCost: string | null }[] };
    expect(s.approvedCost).toBe(150);
    expect(Object.fromEntries(s.heldItems.map((h) => [h.id, h.untrustedCost]))).toMatchObject({ words: '"about 30 credits" (untrusted: not a number)', deep: '10000000000000 (untrusted: above 1e12)', twice: null });
  });

  it('resq answer --held --dry-run lists each held cost as sent, marked, and a total that counts none of them', async () => {
    const r = await runInProcess(['answer', 'hostile', '--held', '--dry-run', '--db', db]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('"about 30 credits" (untrusted: not a number)');
    expect(r.stdout).toContain('"NaN" (untrusted: not a number)');
    expect(r.stdout).not.toMatch(/Infinity/);
  });

  it('show: the marked cost, a 256 KB text and a 3,000-level input answer; a repeated option is listed once', async () => {
    const big = await runInProcess(['show', 'hostile', 'big1', '--db', db]);
    expect(big.code).toBe(0);
    expect(big.stdout).toContain(`cost: ${BIG}`);
    for (const id of ['huge', 'neg']) expect((await runInProcess(['show', 'hostile', id, '--db', db])).code).toBe(0);
    // Nested 3,000 levels: kept to 64 where it entered, the rest marked.
    const deep = await runInProcess(['show', 'hostile', 'deep', '--db', db]);
    expect(deep.code).toBe(0);
    expect(deep.stdout).toContain('(nested deeper than 64 levels: cut by resq)');
    const twice = await runInProcess(['show', 'hostile', 'twice', '--db', db]);
    expect(twice.stdout.match(/option a:/g)).toHaveLength(1);
    expect(twice.stdout).toContain('option b:');
  });

  it('export: every row parses, every cost is finite, an untrusted cost is carried as sent, marked', async () => {
    const r = await runInProcess(['export', 'hostile', '--db', db]);
    expect(r.code).toBe(0);
    const rows = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { id: string; cost: number; decisions: { cost: number; untrusted_cost?: string }[] });
    expect(rows).toHaveLength(9);
    for (const row of rows) expect(FINITE(row.cost) && row.decisions.every((d) => FINITE(d.cost)), row.id).toBe(true);
    expect(rows.find((x) => x.id === 'big1')!.decisions).toMatchObject([{ cost: 0, untrusted_cost: BIG }]);
    expect(rows.find((x) => x.id === 'fine')!.cost).toBe(150);
  });

  it('the JSON API: GET /api/batches, the batch, its held list and each item answer 200 with finite totals and marked costs', async () => {
    const all = await api('/api/batches');
    expect(all.status).toBe(200);
    expect((JSON.parse(all.text) as { batches: { approvedCost: number }[] }).batches.map((b) => b.approvedCost)).toEqual([150]);
    const one = await api('/api/batches/hostile');
    expect(one.status).toBe(200);
    expect((JSON.parse(one.text) as { approvedCost: number }).approvedCost).toBe(150);
    const held = await api('/api/batches/hostile/held');
    expect(held.status).toBe(200);
    const sel = JSON.parse(held.text) as { items: { id: string; cost: number | null; untrustedCost: string | null }[]; totalCost: number };
    expect(sel.totalCost).toBe(0);
    expect(sel.items.find((i) => i.id === 'deep')).toMatchObject({ cost: null, untrustedCost: '10000000000000 (untrusted: above 1e12)' });
    for (const id of ['big1', 'neg', 'words', 'nan', 'huge', 'deep', 'twice']) {
      const it = await api(`/api/batches/hostile/items/${id}`);
      expect(it.status, id).toBe(200);
    }
    const pauses = (JSON.parse((await api('/api/batches/hostile/items/big2')).text) as { pauses: { untrustedCost: string | null }[] }).pauses;
    expect(pauses.map((p) => p.untrustedCost)).toEqual([BIG]);
  });

  it('/metrics: every sample a finite number, the approved cost 150', async () => {
    const r = await api('/metrics');
    expect(r.status).toBe(200);
    const samples = r.text.trim().split('\n').filter((l) => !l.startsWith('#'));
    for (const l of samples) expect(l).toMatch(/ -?\d+(\.\d+)?(e[+-]?\d+)?$/);
    expect(r.text).toMatch(/resq_approved_cost_credits_total\{[^}]*\} 150\n/);
  });

  it('the notebook helpers: status, decisions, plans and the plan chart answer, every cost finite, untrusted ones marked', async () => {
    const nb = await openResults(db);
    try {
      expect((await nb.status('hostile')).approvedCost).toBe(150);
      expect((await nb.summary('hostile')).approvedCost).toBe(150);
      const plans = await nb.plans('hostile');
      expect(plans.every((p) => FINITE(p.cost))).toBe(true);
      expect(plans.find((p) => p.item === 'big1')).toMatchObject({ cost: 0, untrustedCost: BIG, approved: true });
      const chart = planCostChart(plans);
      expect(chart['image/svg+xml']).toContain('150 approved');
      expect(chart['image/svg+xml']).not.toMatch(/Infinity|NaN/);
      expect((await nb.decisions('hostile')).every((d) => FINITE(d.cost))).toBe(true);
      expect((await nb.item('hostile', 'deep')).item.id).toBe('deep');
    } finally {
      await nb.close();
    }
  });

  it('notifications: the held items go out with the cost as sent, marked, and the Slack text says the same', async () => {
    const sender = new Notifier({ store, batchId: batch.id });
    await sender.tick();
    const docs = receiver.requests.map((q) => JSON.parse(q.body) as EventDoc);
    const items = docs.filter((d) => d.type === 'items.held').flatMap((d) => d.items ?? []);
    expect(items.find((i) => i.id === 'nan')).toMatchObject({ cost: null, untrustedCost: '"NaN" (untrusted: not a number)' });
    expect(items.find((i) => i.id === 'big1')).toMatchObject({ cost: null, untrustedCost: BIG });
    const slack = slackText(docs.find((d) => d.type === 'items.held')!);
    expect(slack).toContain('cost -140 (untrusted: negative)');
  });

  it('the page: batches, the batch and each item show, the cost as sent and marked, a repeated option once', async () => {
    let browser: SharedBrowser | undefined;
    try {
      browser = await sharedBrowser();
      const { page, errors } = await watchedPage(await browser.newContext());
      await page.goto(server.loginUrl());
      await page.waitForSelector('#batches');
      expect(await page.textContent('#batches')).toContain('150');
      await page.goto(`${server.origin}/b/hostile`);
      await page.waitForSelector('#spend');
      expect(await page.textContent('#spend')).toContain('150');
      await page.goto(`${server.origin}/b/hostile/i/words`);
      await page.waitForSelector('dd.cost');
      expect(await page.textContent('dd.cost')).toBe('"about 30 credits" (untrusted: not a number)');
      for (const id of ['huge', 'deep']) {
        await page.goto(`${server.origin}/b/hostile/i/${id}`);
        await page.waitForSelector('dd.cost');
      }
      await page.goto(`${server.origin}/b/hostile/i/twice`);
      await page.waitForSelector('form.answer');
      expect(await page.locator('form.answer input[name="option"]').evaluateAll((xs) => xs.map((x) => (x as unknown as { value: string }).value))).toEqual(['a', 'b', 'c']);
      expect(errors).toEqual([]);
    } finally {
      await browser?.release();
    }
  }, 60_000);
});
