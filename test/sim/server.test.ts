import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type Sim } from '../../src/sim/index.js';
import { call, createRun, finish } from './helpers.js';
import { tempDir } from '../support/cli.js';

let sim: Sim;
beforeAll(async () => {
  sim = await startSim({ defaultDurationMs: 10 });
});
afterEach(() => sim.faults.clear());
afterAll(() => sim.close());

describe('startSim', () => {
  it('exposes url, origin and keys', () => {
    expect(sim.url).toBe(`${sim.origin}/api/v1`);
    expect(sim.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sim.keys).toEqual(['sim-key-alice', 'sim-key-bob']);
  });

  it('takes custom keys', async () => {
    const custom = await startSim({ keys: { k1: 'carol' } });
    try {
      expect(custom.keys).toEqual(['k1']);
      expect((await call(custom, 'GET', '/threads', { key: 'k1' })).status).toBe(200);
      expect((await call(custom, 'GET', '/threads')).status).toBe(401);
    } finally {
      await custom.close();
    }
  });

  it('closes promptly with runs and streams still open', async () => {
    const s = await startSim({ defaultDurationMs: 60_000 });
    const run = await createRun(s, 'forever');
    const stream = fetch(`${s.url}/runs/${run.id}/events`, { headers: { authorization: 'Bearer sim-key-alice' } }).then((r) => r.text());
    await call(s, 'GET', `/runs/${run.id}`);
    await s.close();
    await expect(stream).rejects.toThrow();
    await s.close();
  });
});

describe('authentication and errors', () => {
  it('answers 401 unauthorized without a valid Bearer key, with the error body shape', async () => {
    for (const key of [null, 'wrong']) {
      const r = await call(sim, 'GET', '/threads', { key });
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ error: { code: 'unauthorized', message: expect.any(String) }, request_id: r.headers.get('x-request-id') });
      expect(r.headers.get('www-authenticate')).toBe('Bearer');
    }
    const basic = await fetch(`${sim.url}/threads`, { headers: { authorization: 'Basic sim-key-alice' } });
    expect(basic.status).toBe(401);
  });

  it('answers 404 for unknown paths and 405 with Allow for wrong methods', async () => {
    expect((await call(sim, 'GET', '/nothing')).status).toBe(404);
    expect((await fetch(`${sim.origin}/elsewhere`)).status).toBe(404);
    const r = await call(sim, 'PUT', '/runs');
    expect(r.status).toBe(405);
    expect(r.body.error.code).toBe('method_not_allowed');
    expect(r.headers.get('allow')).toBe('POST');
    expect((await call(sim, 'POST', '/threads/abc')).headers.get('allow')).toBe('GET, DELETE');
  });

  it('puts a unique x-request-id on every response', async () => {
    const a = await call(sim, 'GET', '/threads');
    const b = await call(sim, 'GET', '/threads');
    expect(a.headers.get('x-request-id')).toMatch(/^req_/);
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
    expect((await fetch(`${sim.origin}/_sim/counters`)).headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('counts requests by route key, including 401s and unknown paths', async () => {
    sim.resetCounters();
    await call(sim, 'GET', '/threads', { key: null });
    await call(sim, 'GET', '/threads/x');
    await call(sim, 'GET', '/nope');
    expect(sim.counters().requestsByRoute).toEqual({ 'GET /threads': 1, 'GET /threads/:id': 1, unmatched: 1 });
  });
});

describe('fault injection', () => {
  it('error5xxBefore answers 5xx and creates nothing', async () => {
    sim.resetCounters();
    sim.faults.set({ error5xxBefore: 1, routes: ['POST /runs'] });
    const r = await call(sim, 'POST', '/runs', { body: { input: 'never' } });
    expect([500, 502, 503]).toContain(r.status);
    expect(r.body.error.code).toBeTypeOf('string');
    expect(sim.counters().runsAdmitted).toBe(0);
    expect(sim.counters().faultsInjected).toEqual({ error5xxBefore: 1 });
    expect((await call(sim, 'GET', '/threads')).status).toBe(200);
  });

  it('error5xxAfter creates the run, answers 500, and a retry with the key finds it', async () => {
    sim.resetCounters();
    sim.faults.set({ error5xxAfter: 1, routes: ['POST /runs'] });
    const r = await call(sim, 'POST', '/runs', { body: { input: 'lost answer' }, headers: { 'idempotency-key': 'after-1' } });
    expect(r.status).toBe(500);
    expect(sim.counters().runsAdmitted).toBe(1);
    sim.faults.clear();
    const retry = await call(sim, 'POST', '/runs', { body: { input: 'lost answer' }, headers: { 'idempotency-key': 'after-1' } });
    expect(retry.status).toBe(200);
    expect(sim.counters().runsAdmitted).toBe(1);
    expect(sim.counters().admissionsByKey['POST /runs|after-1']).toBe(1);
    await finish(sim, retry.body.id);
  });

  it('dropBefore resets the connection and creates nothing', async () => {
    sim.resetCounters();
    sim.faults.set({ dropBefore: 1, routes: ['POST /runs'] });
    await expect(call(sim, 'POST', '/runs', { body: { input: 'dropped' } })).rejects.toThrow();
    expect(sim.counters().runsAdmitted).toBe(0);
    expect(sim.counters().faultsInjected.dropBefore).toBe(1);
  });

  it('dropAfter creates the run, then resets the connection', async () => {
    sim.resetCounters();
    sim.faults.set({ dropAfter: 1, routes: ['POST /runs'] });
    await expect(call(sim, 'POST', '/runs', { body: { input: 'dropped after' }, headers: { 'idempotency-key': 'd-1' } })).rejects.toThrow();
    expect(sim.counters().runsAdmitted).toBe(1);
    sim.faults.clear();
    const retry = await call(sim, 'POST', '/runs', { body: { input: 'dropped after' }, headers: { 'idempotency-key': 'd-1' } });
    expect(sim.counters().runsAdmitted).toBe(1);
    await finish(sim, retry.body.id);
  });

  it('rate429 answers 429 rate_limited with the configured Retry-After', async () => {
    sim.faults.set({ rate429: 1, retryAfterSeconds: 7 });
    const r = await call(sim, 'GET', '/threads');
    expect(r.status).toBe(429);
    expect(r.body.error.code).toBe('rate_limited');
    expect(r.headers.get('retry-after')).toBe('7');
  });

  it('applies probabilistic faults only to the listed routes', async () => {
    sim.faults.set({ error5xxBefore: 1, routes: ['GET /threads/:id'] });
    expect((await call(sim, 'GET', '/threads')).status).toBe(200);
    expect((await call(sim, 'GET', '/threads/x')).status).toBeGreaterThanOrEqual(500);
  });

  it('draws a seeded, repeatable sequence for fractional probabilities', async () => {
    const statuses = async (): Promise<number[]> => {
      const s = await startSim({ seed: 42 });
      s.faults.set({ error5xxBefore: 0.5 });
      const out: number[] = [];
      for (let i = 0; i < 12; i++) out.push((await call(s, 'GET', '/threads')).status);
      await s.close();
      return out;
    };
    const a = await statuses();
    expect(await statuses()).toEqual(a);
    expect(a.some((x) => x === 200)).toBe(true);
    expect(a.some((x) => x >= 500)).toBe(true);
  });

  it('adds latency before responses', async () => {
    sim.faults.set({ latencyMs: 60 });
    const t0 = performance.now();
    await call(sim, 'GET', '/threads');
    expect(performance.now() - t0).toBeGreaterThanOrEqual(55);
  });

  it('refuses bad fault settings', () => {
    expect(() => sim.faults.set({ rate429: 2 })).toThrow(RangeError);
    expect(() => sim.faults.set({ nope: 1 } as never)).toThrow(/unknown fault/);
  });
});

describe('the state file when this process is out of open files', () => {
  it('a snapshot write met by EMFILE is no crash: the journal is kept and the next start has every run', async () => {
    const state = join(tempDir(), 'r.db.sim.json');
    const first = await startSim({ defaultDurationMs: 10, statePath: state });
    const run = await createRun(first, 'hello');
    expect((await finish(first, run.id)).status).toBe('completed');
    // Take every descriptor this process may still open, then close: its snapshot write fails EMFILE
    // (close saves at once, before it returns), and the descriptors are given back straight after.
    const held: number[] = [];
    let met = '';
    try {
      for (;;) held.push(openSync('/dev/null', 'r'));
    } catch (e) {
      met = (e as NodeJS.ErrnoException).code ?? '';
    }
    let closing: Promise<void>;
    try {
      closing = first.close();
    } finally {
      for (const fd of held) closeSync(fd);
    }
    await closing;
    expect(met).toBe('EMFILE');
    // The fault took effect: the snapshot on disk lacks the run; the journal holds it.
    expect(readFileSync(state, 'utf8')).not.toContain(run.id);
    expect(readFileSync(`${state}.journal`, 'utf8')).toContain(run.id);
    // Let fetch's pool see the closed keep-alive sockets before the same origin serves again.
    await new Promise((r) => setTimeout(r, 50));
    const second = await startSim({ defaultDurationMs: 10, statePath: state });
    try {
      expect((await call(second, 'GET', `/runs/${run.id}`)).body.status).toBe('completed');
    } finally {
      await second.close();
    }
  });
});
