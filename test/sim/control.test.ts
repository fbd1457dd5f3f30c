import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type Sim } from '../../src/sim/index.js';
import { ALICE, call, createRun, finish } from './helpers.js';

let sim: Sim;
beforeAll(async () => {
  sim = await startSim({ defaultDurationMs: 10 });
});
afterAll(() => sim.close());

async function ctl(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${sim.origin}/_sim/${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

describe('/_sim control surface', () => {
  it('GET /_sim/counters gives the counters without auth', async () => {
    await finish(sim, (await createRun(sim, 'counted')).id);
    const r = await ctl('GET', 'counters');
    expect(r.status).toBe(200);
    expect(r.body).toEqual(sim.counters());
    expect(r.body.runsAdmitted).toBe(1);
    expect(r.body.admissionsByInput).toEqual({ counted: 1 });
  });

  it('POST /_sim/faults sets faults; GET reads; DELETE clears; bad fields are 400', async () => {
    const set = await ctl('POST', 'faults', { rate429: 1, routes: ['GET /threads'] });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ rate429: 1, routes: ['GET /threads'], error5xxBefore: 0 });
    expect(sim.faults.get().rate429).toBe(1);
    expect((await call(sim, 'GET', '/threads')).status).toBe(429);
    expect((await ctl('GET', 'faults')).body.rate429).toBe(1);
    expect((await ctl('DELETE', 'faults')).body.rate429).toBe(0);
    expect((await call(sim, 'GET', '/threads')).status).toBe(200);
    const bad = await ctl('POST', 'faults', { rate429: 'lots', sseEndAfterEvents: -1 });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/rate429/);
    expect(bad.body.error.message).toMatch(/sseEndAfterEvents/);
  });

  it('POST /_sim/clock moves the clock', async () => {
    const before = sim.clock.now();
    const r = await ctl('POST', 'clock', { advanceMs: 3_600_000 });
    expect(r.status).toBe(200);
    expect(Date.parse(r.body.now)).toBeGreaterThanOrEqual(before + 3_600_000);
    const run = await createRun(sim, 'in the future');
    expect(Date.parse(run.created_at)).toBeGreaterThan(Date.now() + 3_500_000);
    expect((await ctl('POST', 'clock', { advanceMs: -5 })).status).toBe(400);
    expect((await ctl('GET', 'clock')).status).toBe(200);
    await finish(sim, run.id);
  });

  it('POST /_sim/reset zeroes the counters', async () => {
    const r = await ctl('POST', 'reset');
    expect(r.status).toBe(200);
    expect(r.body.runsAdmitted).toBe(0);
    expect(sim.counters().requestsByRoute).toEqual({});
  });

  it('GET /_sim/ledger gives every run of a chain, each key with its requests and distinct bodies, and the hash of every file as served', async () => {
    const first = await createRun(sim, 'ledger plan @confirm=2 @files=md,pdb @duration=10ms', { idem: 'ledger-first' });
    // The same key again, same body: replayed, counted as a second request with one body.
    await createRun(sim, 'ledger plan @confirm=2 @files=md,pdb @duration=10ms', { idem: 'ledger-first' });
    expect((await finish(sim, first.id)).status).toBe('requires_action');
    const answer = (body: unknown) =>
      fetch(`${sim.url}/runs/${first.id}/respond`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ALICE}`, 'content-type': 'application/json', 'idempotency-key': 'ledger-respond' },
        body: JSON.stringify(body),
      });
    const second = (await (await answer({ answer: { approved: true } })).json()) as { id: string };
    // A different body under the same key: replayed all the same, but the ledger shows both bodies.
    await (await answer({ answer: { approved: false } })).text();
    const done = await finish(sim, second.id);
    const r = await ctl('GET', 'ledger');
    expect(r.status).toBe(200);
    expect(r.body).toEqual(sim.ledger());
    const input = 'ledger plan @confirm=2 @files=md,pdb @duration=10ms';
    const runs = r.body.runs.filter((x: any) => x.input.startsWith('ledger plan'));
    expect(runs).toEqual([
      { id: first.id, account: 'alice', threadId: first.thread_id, input, parentId: null, idempotencyKey: 'ledger-first', status: 'requires_action', fileIds: [] },
      { id: second.id, account: 'alice', threadId: first.thread_id, input, parentId: first.id, idempotencyKey: 'ledger-respond', status: 'completed', fileIds: expect.any(Array) },
    ]);
    const sha = (s: string) => createHash('sha256').update(s).digest('hex');
    const firstKey = r.body.keys.find((k: any) => k.key === 'ledger-first');
    expect(firstKey).toEqual({
      account: 'alice',
      scope: 'POST /api/v1/runs',
      key: 'ledger-first',
      requests: 2,
      bodies: [sha(JSON.stringify({ input: 'ledger plan @confirm=2 @files=md,pdb @duration=10ms' }))],
      madeId: first.id,
    });
    const respondKey = r.body.keys.find((k: any) => k.key === 'ledger-respond');
    expect(respondKey).toMatchObject({ scope: `POST /api/v1/runs/${first.id}/respond`, requests: 2, madeId: second.id });
    expect(respondKey.bodies).toEqual([sha(JSON.stringify({ answer: { approved: true } })), sha(JSON.stringify({ answer: { approved: false } }))]);
    // Every file: the hash and length of the bytes GET /files/{id} serves.
    const fileIds: string[] = runs[1].fileIds;
    expect(fileIds).toHaveLength(2);
    expect(done.status).toBe('completed');
    for (const id of fileIds) {
      const res = await fetch(`${sim.url}/files/${id}`, { headers: { authorization: `Bearer ${ALICE}` } });
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(r.body.files.find((f: any) => f.id === id)).toEqual({ id, runId: second.id, sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length });
    }
    // A run made without a key records none.
    const plain = await createRun(sim, 'ledger no key');
    expect(sim.ledger().runs.find((x) => x.id === plain.id)?.idempotencyKey).toBeNull();
    await finish(sim, plain.id);
    expect((await ctl('POST', 'ledger')).status).toBe(405);
  });

  it('answers 404 for unknown controls and 405 for wrong methods', async () => {
    expect((await ctl('GET', 'nope')).status).toBe(404);
    expect((await ctl('POST', 'counters')).status).toBe(405);
  });
});
