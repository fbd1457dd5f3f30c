import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type Sim } from '../../src/sim/index.js';
import { ALICE, BOB, call, createRun, finish, readEvents } from './helpers.js';

let sim: Sim;
beforeAll(async () => {
  sim = await startSim({ defaultDurationMs: 30 });
});
afterEach(() => sim.faults.clear());
afterAll(() => sim.close());

describe('GET /runs/{id}/events', () => {
  it('streams retry, deltas, tool events and a final run event equal to GET', async () => {
    const run = await createRun(sim, 'stream me @files=csv @deltas=3');
    const read = await readEvents(sim, run.id);
    expect(read.status).toBe(200);
    expect(read.contentType).toMatch(/^text\/event-stream/);
    expect(read.retry).toBe(1000);
    expect(read.events.map((e) => e.id)).toEqual(read.events.map((_, i) => i));
    const names = read.events.map((e) => e.event);
    expect(names.filter((n) => n === 'text.delta')).toHaveLength(3);
    expect(names).toContain('tool.started');
    expect(read.events.filter((e) => e.event === 'tool.result').map((e) => e.data.tool)).toEqual(['search_literature', 'write_table']);
    expect(names.at(-1)).toBe('run');
    const final = read.events.at(-1)!.data;
    const text = read.events.filter((e) => e.event === 'text.delta').map((e) => e.data.text).join('');
    expect(final.output.text).toBe(text);
    expect((await call(sim, 'GET', `/runs/${run.id}`)).body).toEqual(final);
  });

  it('replays only the events after `after`, then the run event', async () => {
    const run = await createRun(sim, 'resume me');
    const all = (await readEvents(sim, run.id)).events;
    const tail = (await readEvents(sim, run.id, 2)).events;
    expect(tail.map((e) => e.id)).toEqual(all.filter((e) => e.id > 2).map((e) => e.id));
    expect(tail).toEqual(all.slice(3));
  });

  it('ends a finished run\'s stream with its run event even when after is past it', async () => {
    const run = await createRun(sim, 'done already');
    const all = (await readEvents(sim, run.id)).events;
    const last = all.at(-1)!;
    const again = (await readEvents(sim, run.id, last.id)).events;
    expect(again).toEqual([last]);
  });

  it('gives the requires_action run as the final event of a paused run', async () => {
    const run = await createRun(sim, 'pause @image');
    const final = (await readEvents(sim, run.id)).events.at(-1)!;
    expect(final.event).toBe('run');
    expect(final.data.status).toBe('requires_action');
  });

  it('ends early after sseEndAfterEvents events without a run event, and resumes with after', async () => {
    const run = await createRun(sim, 'cut short @deltas=6');
    sim.faults.set({ sseEndAfterEvents: 2 });
    const got: number[] = [];
    let last = -1;
    for (let i = 0; i < 20; i++) {
      const read = await readEvents(sim, run.id, last);
      for (const e of read.events) got.push(e.id);
      last = read.events.at(-1)?.id ?? last;
      if (read.events.at(-1)?.event === 'run') break;
      expect(read.events.length).toBeLessThanOrEqual(2);
    }
    expect(got).toEqual(got.map((_, i) => i));
    expect(sim.counters().faultsInjected.sseEndAfterEvents).toBeGreaterThan(0);
    sim.faults.clear();
    expect((await readEvents(sim, run.id, -1)).events.at(-1)!.event).toBe('run');
  });

  it('with sseEndAfterEvents 0 the stream ends at once', async () => {
    const run = await createRun(sim, 'nothing');
    sim.faults.set({ sseEndAfterEvents: 0 });
    const read = await readEvents(sim, run.id);
    expect(read.retry).toBe(1000);
    expect(read.events).toEqual([]);
    sim.faults.clear();
    await finish(sim, run.id);
  });

  it('closes by itself after streamMaxMs and sends keepalive comments', async () => {
    const short = await startSim({ defaultDurationMs: 400, streamMaxMs: 80, keepAliveMs: 20 });
    try {
      const run = await createRun(short, 'long @deltas=1 @duration=400ms');
      const read = await readEvents(short, run.id);
      expect(read.events.some((e) => e.event === 'run')).toBe(false);
      expect(read.comments).toBeGreaterThan(0);
      const rest = await readEvents(short, run.id, read.events.at(-1)?.id ?? -1);
      expect(rest.events.length).toBeGreaterThan(0);
    } finally {
      await short.close();
    }
  });

  it('cuts the connection after the first event with dropAfter', async () => {
    const run = await createRun(sim, 'drop stream @deltas=5');
    sim.faults.set({ dropAfter: 1, routes: ['GET /runs/:id/events'] });
    const res = await fetch(`${sim.url}/runs/${run.id}/events`, { headers: { authorization: `Bearer ${ALICE}` } });
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
    expect(sim.counters().faultsInjected.dropAfter).toBe(1);
    sim.faults.clear();
    await finish(sim, run.id);
  });

  it('is 404 for another account\'s run and 400 for a bad after', async () => {
    const run = await createRun(sim, 'private stream');
    const foreign = await fetch(`${sim.url}/runs/${run.id}/events`, { headers: { authorization: `Bearer ${BOB}` } });
    expect(foreign.status).toBe(404);
    expect(((await foreign.json()) as any).error.code).toBe('not_found');
    const bad = await call(sim, 'GET', `/runs/${run.id}/events?after=x`);
    expect(bad.status).toBe(400);
    await finish(sim, run.id);
  });
});
