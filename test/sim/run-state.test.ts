import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type Sim } from '../../src/sim/index.js';
import { call, createRun, readEvents, respond, untilEvent } from './helpers.js';

// A finished run keeps no event log nor output: both are worked out again from its chain
// and progress. What a late reader gets must equal what a live stream delivered.
let sim: Sim;
beforeAll(async () => {
  sim = await startSim({ defaultDurationMs: 60 });
});
afterAll(() => sim.close());

async function liveThenReplayed(input: string) {
  const run = await createRun(sim, input);
  const live = (await readEvents(sim, run.id)).events;
  const replayed = (await readEvents(sim, run.id)).events;
  const read = (await call(sim, 'GET', `/runs/${run.id}`)).body;
  return { run, live, replayed, read };
}

describe('a finished run worked out again', () => {
  for (const input of ['Question 1 @duration=50ms', 'files @files=md,pdb:noname,csv @filename=a%20b.md', 'plan @confirm=3', 'broken @fail', 'no deltas @deltas=0', 'stop @status=cancelling @duration=20ms']) {
    it(`replays the same events with the same ids, and GET equals the final event (${input})`, async () => {
      const { live, replayed, read } = await liveThenReplayed(input);
      expect(live.at(-1)!.event).toBe('run');
      expect(replayed).toEqual(live);
      expect(read).toEqual(live.at(-1)!.data);
      expect(live.map((e) => e.id)).toEqual(live.map((_, i) => i));
    });
  }

  it('replays after K the tail of the live events', async () => {
    const { run, live } = await liveThenReplayed('tail @files=png');
    for (const k of [-1, 0, 2, live.length - 2]) {
      const tail = (await readEvents(sim, run.id, k)).events;
      expect(tail).toEqual(live.filter((e) => e.id > k));
    }
  });

  it('keeps the work of a run cancelled halfway, in its events and its reads', async () => {
    const run = await createRun(sim, 'long @files=md @duration=2s');
    const stream = readEvents(sim, run.id);
    await untilEvent(sim, run.id, 'tool.result');
    expect((await call(sim, 'POST', `/runs/${run.id}/cancel`, { body: {} })).status).toBe(200);
    const live = (await stream).events;
    const final = live.at(-1)!;
    expect(final.event).toBe('run');
    expect(final.data.status).toBe('cancelled');
    expect(final.data.output.text).toBe(live.filter((e) => e.event === 'text.delta').map((e) => e.data.text).join(''));
    expect(final.data.output.tool_results).toHaveLength(live.filter((e) => e.event === 'tool.result').length);
    expect((await readEvents(sim, run.id)).events).toEqual(live);
    expect((await call(sim, 'GET', `/runs/${run.id}`)).body).toEqual(final.data);
  });

  it('gives a paused run its required_action until answered, and the answer run its own log', async () => {
    const { run, live } = await liveThenReplayed('choose @choice=multi');
    expect(live.at(-1)!.data.required_action).toMatchObject({ tool: 'ask_choice', input: { allowMultiple: true } });
    const next = await respond(sim, run.id, { decision: 'chosen', chosen: ['a', 'b'] });
    expect(next.status).toBe(200);
    const nextLive = (await readEvents(sim, next.body.id)).events;
    expect(nextLive.at(-1)!.data.output.text).toContain('ask_choice: chosen a,b');
    // The answered run reads as before.
    expect((await call(sim, 'GET', `/runs/${run.id}`)).body).toEqual(live.at(-1)!.data);
    expect((await readEvents(sim, next.body.id)).events).toEqual(nextLive);
  });

  it('answers an idempotent retry with the same run, also once finished', async () => {
    const a = await createRun(sim, 'once @duration=10ms', { idem: 'rs-once' });
    const done = (await readEvents(sim, a.id)).events.at(-1)!.data;
    const b = await call(sim, 'POST', '/runs', { body: { input: 'once @duration=10ms' }, headers: { 'idempotency-key': 'rs-once' } });
    expect(b.body).toEqual(done);
  });
});
