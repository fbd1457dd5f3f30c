import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_LIMIT } from '../../src/web/app.js';
import { login } from './support/session.js';
import { bearer, webFixture, type WebFixture } from './support/web-fixture.js';

describe('the JSON API: writes through the library operations', () => {
  let f: WebFixture;
  beforeAll(async () => {
    f = await webFixture();
  }, 60_000);
  afterAll(async () => f?.close());

  const post = async (p: string, body: unknown, headers: Record<string, string> = {}) => {
    const r = await fetch(`${f.server.origin}${p}`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...bearer(f.server), ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
    return { status: r.status, body: (await r.json()) as Record<string, unknown> };
  };
  /** The pause an item is held on now (its run id), as the page shows it. */
  const runOf = async (id: string) => (await f.store.getItem(f.batch.id, id))!.runId!;

  it('answers a held plan with the person recorded; a second answer is 409 naming who and when, nothing recorded twice', async () => {
    const runId = await runOf('plan');
    const first = await post('/api/batches/web/items/plan/answer', { person: 'Ada', runId, reply: { kind: 'approve', note: 'worth it' } });
    expect(first).toEqual({ status: 200, body: { item: 'plan', runId, cost: 50, overBudget: false, answer: { approved: true }, by: 'person', person: 'Ada', next: { why: 'no-worker', text: 'no worker running: resq resume web', command: 'resq resume web' } } });
    const second = await post('/api/batches/web/items/plan/answer', { person: 'Bob', runId, reply: { kind: 'decline' } });
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ code: 'RESQ_ALREADY_ANSWERED', answeredBy: 'Ada', answeredAt: expect.any(String) });
    expect(second.body.error).toContain('already answered by Ada');
    const decisions = await f.store.decisionsForItem(f.batch.id, 'plan');
    expect(decisions.map((d) => [d.by, d.person, d.answer])).toEqual([['person', 'Ada', { approved: true }]]);
  });

  it('a reply that does not fit the pause is a 400 from the same check the CLI makes', async () => {
    const r = await post('/api/batches/web/items/multi/answer', { person: 'Ada', runId: await runOf('multi'), reply: { kind: 'choose', ids: ['a', 'zz'] } });
    expect(r.status).toBe(400);
    expect(r.body.error).toContain('zz not offered');
    expect((await f.store.getItem(f.batch.id, 'multi'))!.state).toBe('held');
  });

  it('a bad body is one line naming the field; no JSON content type is 415', async () => {
    const runId = await runOf('multi');
    expect((await post('/api/batches/web/items/multi/answer', { runId, reply: { kind: 'approve' } })).body.error).toBe('body: person: Invalid input: expected string, received undefined');
    expect((await post('/api/batches/web/items/multi/answer', { person: 'A', runId, reply: { kind: 'maybe' } })).body.error).toMatch(/^body: reply.kind: /);
    expect((await post('/api/batches/web/items/multi/answer', { person: 'A', reply: { kind: 'decline' } })).body.error).toBe('body: runId: Invalid input: expected string, received undefined');
    expect((await post('/api/batches/web/items/multi/answer', { person: 'A', runId, overBudget: 'yes', reply: { kind: 'decline' } })).body.error).toMatch(/^body: overBudget: /);
    expect((await post('/api/batches/web/items/multi/answer', '{not json')).body.error).toBe('body: not valid JSON');
    expect((await post('/api/batches/web/items/multi/answer', '{}', { 'Content-Type': 'text/plain' })).status).toBe(415);
  });

  it('Content-Type must be application/json exactly (a UTF-8 charset allowed): look-alikes are 415, nothing recorded', async () => {
    const body = { person: 'Mallory', reply: { kind: 'choose', ids: ['zz'] } };
    for (const type of ['application/jsonfoo', 'application/json-patch+json', 'application/json, text/plain', 'application/json; charset=latin1', 'text/json', 'application/x-www-form-urlencoded'])
      expect((await post('/api/batches/web/items/multi/answer', body, { 'Content-Type': type })).status, type).toBe(415);
    for (const type of ['application/json', 'Application/JSON', 'application/json; charset=utf-8', 'application/json;charset=UTF-8'])
      expect((await post('/api/batches/web/items/multi/answer', body, { 'Content-Type': type })).status, type).toBe(400);
    expect((await f.store.getItem(f.batch.id, 'multi'))!.state).toBe('held');
  });

  it(`a body over ${BODY_LIMIT / 1024} KiB is 413 before it is read: a 400 MB answer stops after its first bytes, with little memory used`, async () => {
    const total = 400 * 1024 * 1024;
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    const rssBefore = process.memoryUsage().rss;
    let peak = rssBefore;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    const { status, sent, body } = await new Promise<{ status: number; sent: number; body: string }>((resolve, reject) => {
      let sent = 0;
      let answered = false;
      const req = request(`${f.server.origin}/api/batches/web/items/multi/answer`, { method: 'POST', headers: { ...bearer(f.server), 'Content-Type': 'application/json', 'Content-Length': String(total) } }, (res) => {
        answered = true;
        let text = '';
        res.setEncoding('utf8').on('data', (d: string) => (text += d));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, sent, body: text });
          req.destroy();
        });
      });
      req.on('error', (e) => (answered ? undefined : reject(e)));
      const write = () => {
        while (!answered && sent < total) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', write);
        }
      };
      write();
    });
    clearInterval(sampler);
    expect(status).toBe(413);
    expect(JSON.parse(body)).toEqual({ error: `body: more than ${BODY_LIMIT / 1024} KiB`, code: 'RESQ_TOO_LARGE' });
    expect(sent).toBeLessThan(64 * 1024 * 1024);
    expect(peak - rssBefore).toBeLessThan(128 * 1024 * 1024);
    // The same without a Content-Length (chunked): refused once past the limit.
    const chunked = await fetch(`${f.server.origin}/api/batches/web/retry`, {
      method: 'POST',
      headers: { ...bearer(f.server), 'Content-Type': 'application/json' },
      body: new ReadableStream({ pull: (c) => c.enqueue(new Uint8Array(64 * 1024).fill(0x20)) }),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect((await f.store.getItem(f.batch.id, 'multi'))!.state).toBe('held');
  });

  it('retry queues the failed items again; the export records by: person with the name', async () => {
    expect(await post('/api/batches/web/retry', { states: ['failed'] })).toEqual({ status: 200, body: { requeued: 1, next: { why: 'no-worker', text: 'no worker running: resq resume web', command: 'resq resume web' } } });
    expect((await f.store.getItem(f.batch.id, 'doomed'))!.state).toBe('queued');
    const r = await fetch(`${f.server.origin}/api/batches/web/export?format=jsonl`, { headers: bearer(f.server) });
    expect(r.headers.get('content-disposition')).toBe('attachment; filename="web.jsonl"');
    const rows = (await r.text()).trim().split('\n').map((l) => JSON.parse(l) as { id: string; decisions: unknown[] });
    expect(rows.find((x) => x.id === 'plan')!.decisions).toEqual([{ tool: 'confirm_scope', input: expect.any(Object), answer: { approved: true }, by: 'person', person: 'Ada', reason: 'worth it', note: 'worth it', cost: 50 }]);
    const csv = await (await fetch(`${f.server.origin}/api/batches/web/export?format=csv`, { headers: bearer(f.server) })).text();
    expect(csv.split("\n")[0]).toMatch(/^id,question,meta.lab,status/);
  });


  it('cancel stops the batch: queued items are cancelled', async () => {
    const r = await post('/api/batches/web/cancel', {});
    expect(r).toEqual({ status: 200, body: { queued: 1, cancelled: 0, left: 0, reason: null } });
    expect((await f.store.getItem(f.batch.id, 'doomed'))!.state).toBe('cancelled');
  });
  it('retry of named items takes them whatever they ended in, as `resq retry --items` does', async () => {
    expect((await f.store.getItem(f.batch.id, 'plain'))!.state).toBe('completed');
    // The batch was cancelled just before: nothing to resume, no command suggested.
    expect(await post('/api/batches/web/retry', { items: ['plain'] })).toEqual({ status: 200, body: { requeued: 1, next: null } });
    expect((await f.store.getItem(f.batch.id, 'plain'))!).toMatchObject({ state: 'queued', attempt: 1 });
  });
});

describe('the JSON API: a decision in bulk (GET …/held, POST …/held/answer)', () => {
  let f: WebFixture;
  beforeAll(async () => {
    f = await webFixture({ name: 'bulk' });
  }, 60_000);
  afterAll(async () => f?.close());

  const post = async (p: string, body: unknown, headers: Record<string, string> = bearer(f.server)) => {
    const r = await fetch(`${f.server.origin}${p}`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });
    const text = await r.text();
    return { status: r.status, body: (text.startsWith('{') ? JSON.parse(text) : { text }) as Record<string, unknown> };
  };
  /** Each item with the pause it is held on now, as the page lists them. */
  const listed = async (ids: string[], fx: WebFixture = f) => Promise.all(ids.map(async (id) => ({ id, runId: (await fx.store.getItem(fx.batch.id, id))!.runId! })));
  const get = async (p: string) => {
    const r = await fetch(`${f.server.origin}${p}`, { headers: bearer(f.server) });
    return { status: r.status, body: (await r.json()) as Record<string, unknown> };
  };

  it('lists the held items a filter selects with their cost; a bad filter is a 400 naming the field', async () => {
    expect((await get('/api/batches/bulk/held')).body).toMatchObject({ count: 3, totalCost: 50 });
    const plans = await get('/api/batches/bulk/held?tool=confirm_scope&minCost=10&maxCost=60');
    expect(plans.body).toEqual({ items: [{ id: 'plan', runId: (await listed(['plan']))[0]!.runId, tool: 'confirm_scope', cost: 50, untrustedCost: null, holdReason: expect.any(String), question: 'Costly plan @confirm=50', meta: { lab: 'south' } }], count: 1, totalCost: 50 });
    expect((await get('/api/batches/bulk/held?meta=lab&value=north')).body.items).toMatchObject([{ id: 'multi' }]);
    expect((await get('/api/batches/bulk/held?q=FIGURE')).body.items).toMatchObject([{ id: 'image' }]);
    expect(await get('/api/batches/bulk/held?minCost=abc')).toEqual({ status: 400, body: { error: 'query: minCost: give a number of 0 or more', code: 'RESQ_BAD_REQUEST' } });
    expect((await get('/api/batches/bulk/held?minCost=9&maxCost=1')).status).toBe(400);
    expect((await get('/api/batches/nope/held')).status).toBe(404);
  });

  it('answers each named item with the person and note; one answered first by someone else is skipped and named; nothing twice', async () => {
    // Ada answers the plan on her own first.
    const items = await listed(['plan', 'image', 'multi']);
    expect((await post('/api/batches/bulk/items/plan/answer', { person: 'Ada', runId: items[0]!.runId, reply: { kind: 'approve' } })).status).toBe(200);
    const r = await post('/api/batches/bulk/held/answer', { person: 'Cy', reply: { kind: 'decline', note: 'not now' }, items });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      person: 'Cy',
      answered: [
        { id: 'multi', runId: items[2]!.runId, tool: 'ask_choice', cost: null, overBudget: false, answer: { decision: 'declined', note: 'not now' } },
        { id: 'image', runId: items[1]!.runId, tool: 'request_quality_image', cost: null, overBudget: false, answer: { approved: false } },
      ],
      skipped: [{ id: 'plan', reason: expect.stringMatching(/^already answered by Ada at /), by: 'Ada', at: expect.any(String) }],
      totalCost: 0,
      spent: 0,
      next: { why: 'no-worker', text: 'no worker running: resq resume bulk', command: 'resq resume bulk' },
    });
    for (const [id, person] of [['plan', 'Ada'], ['image', 'Cy'], ['multi', 'Cy']] as const) {
      const d = await f.store.decisionsForItem(f.batch.id, id);
      expect(d.map((x) => x.person), id).toEqual([person]);
    }
  });

  it('refuses a bad body, an answer that does not fit every item (nothing recorded), and a session write from another origin', async () => {
    expect((await post('/api/batches/bulk/held/answer', { person: 'Cy', reply: { kind: 'approve' }, items: [] })).body.error).toBe('body: items: select at least one held item');
    expect((await post('/api/batches/bulk/held/answer', { person: 'Cy', reply: { kind: 'approve' }, items: Array.from({ length: 501 }, (_, i) => ({ id: `x${i}`, runId: 'r' })) })).status).toBe(400);
    expect((await post('/api/batches/bulk/held/answer', { person: 'Cy', reply: { kind: 'approve' }, ids: ['plan'] })).body.error).toMatch(/^body: items: /);
    const f2 = await webFixture({ name: 'bulk2' });
    try {
      const misfit = await fetch(`${f2.server.origin}/api/batches/bulk2/held/answer`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...bearer(f2.server) }, body: JSON.stringify({ person: 'Cy', reply: { kind: 'approve' }, items: await listed(['plan', 'multi'], f2) }) });
      expect(misfit.status).toBe(400);
      expect(((await misfit.json()) as { error: string }).error).toContain('does not fit 1 of the 2 selected item(s): multi (ask_choice');
      expect(await f2.store.decisionsForItem(f2.batch.id, 'plan')).toEqual([]);
      const bulkUrl = `${f2.server.origin}/api/batches/bulk2/held/answer`;
      const body = JSON.stringify({ person: 'M', reply: { kind: 'approve' }, items: await listed(['plan'], f2) });
      expect((await fetch(bulkUrl, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body })).status).toBe(401);
      const big = await fetch(bulkUrl, { method: 'POST', headers: { 'Content-Type': 'application/json', ...bearer(f2.server) }, body: JSON.stringify({ person: 'M', reply: { kind: 'approve', note: 'x'.repeat(BODY_LIMIT) }, items: await listed(['plan'], f2) }) });
      expect(big.status).toBe(413);
      expect(await f2.store.decisionsForItem(f2.batch.id, 'plan')).toEqual([]);
      const cookie = await login(f2.server);
      const foreign = await fetch(`${f2.server.origin}/api/batches/bulk2/held/answer`, { method: 'POST', headers: { 'Content-Type': 'application/json', Cookie: cookie, Origin: 'http://evil.example' }, body: JSON.stringify({ person: 'M', reply: { kind: 'approve' }, items: await listed(['plan'], f2) }) });
      expect(foreign.status).toBe(403);
      const same = await fetch(`${f2.server.origin}/api/batches/bulk2/held/answer`, { method: 'POST', headers: { 'Content-Type': 'application/json', Cookie: cookie, Origin: f2.server.origin }, body: JSON.stringify({ person: 'M', reply: { kind: 'approve' }, items: await listed(['plan'], f2) }) });
      expect(same.status).toBe(200);
      expect((await f2.store.decisionsForItem(f2.batch.id, 'plan')).map((d) => d.person)).toEqual(['M']);
    } finally {
      await f2.close();
    }
  }, 60_000);
});

describe('the JSON API: a decision is for the pause the person saw, and held to the budget', () => {
  let f: WebFixture;
  beforeAll(async () => {
    // t1 pauses on a plan costing 1, then (once answered) on one costing 99,999; p100 and p88 under batch_budget 150.
    f = await webFixture({
      name: 'seen',
      csv: 'id,question,lab\nt1,plan @confirm=1 @confirm=99999,x\np100,plan @confirm=100,x\np88,plan @confirm=88,x\n',
      policy: { confirm_scope: { approve_max_cost: 0, batch_budget: 150 } },
    });
  }, 60_000);
  afterAll(async () => f?.close());

  const post = async (p: string, body: unknown) => {
    const r = await fetch(`${f.server.origin}${p}`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...bearer(f.server) }, body: JSON.stringify(body) });
    return { status: r.status, body: (await r.json()) as Record<string, unknown> };
  };
  const runOf = async (id: string) => (await f.store.getItem(f.batch.id, id))!.runId!;

  it('t1 approved by B, paused again at 99,999: A\'s approval with the run id A saw is 409 with the message and the new pause, nothing recorded (single and bulk)', async () => {
    const seen = await runOf('t1');
    expect((await post('/api/batches/seen/items/t1/answer', { person: 'B', runId: seen, reply: { kind: 'approve' } })).status).toBe(200);
    await f.resume();
    const now = await runOf('t1');
    expect(now).not.toBe(seen);
    const single = await post('/api/batches/seen/items/t1/answer', { person: 'A', runId: seen, reply: { kind: 'approve' } });
    expect(single).toEqual({
      status: 409,
      body: {
        code: 'RESQ_PAUSE_MOVED',
        error: 't1 paused again since you saw it (cost 1 → 99,999): nothing recorded; resq show seen t1',
        pause: { runId: now, tool: 'confirm_scope', cost: 99_999 },
        seen: { runId: seen, tool: 'confirm_scope', cost: 1 },
      },
    });
    const bulk = await post('/api/batches/seen/held/answer', { person: 'A', reply: { kind: 'approve' }, items: [{ id: 't1', runId: seen }] });
    expect(bulk.status).toBe(200);
    expect(bulk.body).toMatchObject({ answered: [], skipped: [{ id: 't1', by: 'B', reason: 't1 paused again since you saw it (cost 1 → 99,999): nothing recorded', pause: { runId: now, cost: 99_999 } }], spent: 0 });
    expect((await f.store.decisionsForItem(f.batch.id, 't1')).map((d) => [d.runId, d.person])).toEqual([[seen, 'B']]);
    expect((await f.store.getItem(f.batch.id, 't1'))!.state).toBe('held');
  });

  it('an approval past batch_budget is 409 naming the totals until overBudget: true is sent; the decision records it went over', async () => {
    const items = [{ id: 'p100', runId: await runOf('p100') }, { id: 'p88', runId: await runOf('p88') }];
    const refused = await post('/api/batches/seen/held/answer', { person: 'A', reply: { kind: 'approve' }, items });
    expect(refused).toEqual({
      status: 409,
      body: {
        code: 'RESQ_OVER_BUDGET',
        error: "approving 2 held item(s) (cost 188) takes the batch's approved cost to 189 of its budget 150 (126%): nothing recorded: confirm to go over the budget",
        budget: 150,
        approvedCost: 1,
        cost: 188,
        newTotal: 189,
      },
    });
    expect(await f.store.approvedCost(f.batch.id)).toBe(1);
    const single = await post('/api/batches/seen/items/p88/answer', { person: 'A', runId: items[1]!.runId, reply: { kind: 'approve' } });
    expect(single).toEqual({ status: 200, body: expect.objectContaining({ item: 'p88', cost: 88, overBudget: false }) });
    const past = await post('/api/batches/seen/items/p100/answer', { person: 'A', runId: items[0]!.runId, reply: { kind: 'approve' } });
    expect(past.status).toBe(409);
    expect(past.body).toMatchObject({ code: 'RESQ_OVER_BUDGET', newTotal: 189, budget: 150 });
    const confirmed = await post('/api/batches/seen/items/p100/answer', { person: 'A', runId: items[0]!.runId, overBudget: true, reply: { kind: 'approve' } });
    expect(confirmed).toEqual({ status: 200, body: expect.objectContaining({ item: 'p100', cost: 100, overBudget: true }) });
    expect((await f.store.decisionsForItem(f.batch.id, 'p100')).map((d) => d.overBudget)).toEqual([true]);
    expect(await f.store.approvedCost(f.batch.id)).toBe(189);
  });
});
