import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

  it('answers a held plan with the person recorded; a second answer is 409 naming who and when, nothing recorded twice', async () => {
    const first = await post('/api/batches/web/items/plan/answer', { person: 'Ada', reply: { kind: 'approve', note: 'worth it' } });
    expect(first).toEqual({ status: 200, body: { item: 'plan', answer: { approved: true }, by: 'person', person: 'Ada' } });
    const second = await post('/api/batches/web/items/plan/answer', { person: 'Bob', reply: { kind: 'decline' } });
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ code: 'RESQ_ALREADY_ANSWERED', answeredBy: 'Ada', answeredAt: expect.any(String) });
    expect(second.body.error).toContain('already answered by Ada');
    const decisions = await f.store.decisionsForItem(f.batch.id, 'plan');
    expect(decisions.map((d) => [d.by, d.person, d.answer])).toEqual([['person', 'Ada', { approved: true }]]);
  });

  it('a reply that does not fit the pause is a 400 from the same check the CLI makes', async () => {
    const r = await post('/api/batches/web/items/multi/answer', { person: 'Ada', reply: { kind: 'choose', ids: ['a', 'zz'] } });
    expect(r.status).toBe(400);
    expect(r.body.error).toContain('zz not offered');
    expect((await f.store.getItem(f.batch.id, 'multi'))!.state).toBe('held');
  });

  it('a bad body is one line naming the field; no JSON content type is 415', async () => {
    expect((await post('/api/batches/web/items/multi/answer', { reply: { kind: 'approve' } })).body.error).toBe('body: person: Invalid input: expected string, received undefined');
    expect((await post('/api/batches/web/items/multi/answer', { person: 'A', reply: { kind: 'maybe' } })).body.error).toMatch(/^body: reply.kind: /);
    expect((await post('/api/batches/web/items/multi/answer', '{not json')).body.error).toBe('body: not valid JSON');
    expect((await post('/api/batches/web/items/multi/answer', '{}', { 'Content-Type': 'text/plain' })).status).toBe(415);
  });

  it('retry queues the failed items again; the export records by: person with the name', async () => {
    expect(await post('/api/batches/web/retry', { states: ['failed'] })).toEqual({ status: 200, body: { requeued: 1 } });
    expect((await f.store.getItem(f.batch.id, 'doomed'))!.state).toBe('queued');
    const r = await fetch(`${f.server.origin}/api/batches/web/export?format=jsonl`, { headers: bearer(f.server) });
    expect(r.headers.get('content-disposition')).toBe('attachment; filename="web.jsonl"');
    const rows = (await r.text()).trim().split('\n').map((l) => JSON.parse(l) as { id: string; decisions: unknown[] });
    expect(rows.find((x) => x.id === 'plan')!.decisions).toEqual([{ tool: 'confirm_scope', input: expect.any(Object), answer: { approved: true }, by: 'person', person: 'Ada', reason: 'worth it', cost: 50 }]);
    const csv = await (await fetch(`${f.server.origin}/api/batches/web/export?format=csv`, { headers: bearer(f.server) })).text();
    expect(csv.split("\n")[0]).toMatch(/^id,question,meta.lab,status/);
  });

  it('cancel stops the batch: queued items are cancelled', async () => {
    const r = await post('/api/batches/web/cancel', {});
    expect(r).toEqual({ status: 200, body: { queued: 1, cancelled: 0, left: 0, reason: null } });
    expect((await f.store.getItem(f.batch.id, 'doomed'))!.state).toBe('cancelled');
  });
});
