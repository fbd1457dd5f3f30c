import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type Sim } from '../../src/sim/index.js';
import { call, createRun, finish, readEvents } from './helpers.js';

describe('run timeline', () => {
  let sim: Sim;
  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 40 });
  });
  afterAll(() => sim.close());

  it('grows output.text and tool_results as events happen', async () => {
    // Long enough that a loaded machine still reads it while it runs (the checks count only then).
    const run = await createRun(sim, 'watch me @files=md,pdb @deltas=4 @duration=3s');
    const res = await fetch(`${sim.url}/runs/${run.id}/events`, { headers: { authorization: 'Bearer sim-key-alice' } });
    const decoder = new TextDecoder();
    let buffer = '';
    let text = '';
    let results = 0;
    let checks = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event === 'text.delta') text += JSON.parse(data!).text;
        if (event === 'tool.result') results++;
        if (event === 'text.delta' || event === 'tool.result') {
          // The run may have moved on while the GET travelled, so it holds at least what was streamed.
          const now = (await call(sim, 'GET', `/runs/${run.id}`)).body;
          expect(now.output.tool_results.length).toBeGreaterThanOrEqual(results);
          expect(now.output.text.startsWith(text)).toBe(true);
          if (now.status === 'running') checks++;
        }
      }
    }
    expect(checks).toBeGreaterThan(3);
    const done = await finish(sim, run.id);
    expect(done.output.text).toBe(text);
    expect(done.output.tool_results.map((t: any) => t.tool)).toEqual(['search_literature', 'write_report', 'fold_protein']);
    expect(done.output.tool_results.every((t: any) => t.type === 'tool_result' && t.status === 'succeeded' && t.call_id)).toBe(true);
  });

  it('delivers the text only with the final state when @deltas=0', async () => {
    const run = await createRun(sim, 'quiet @deltas=0');
    const { events } = await readEvents(sim, run.id);
    expect(events.some((e) => e.event === 'text.delta')).toBe(false);
    expect(events.at(-1)!.data.output.text).toContain('quiet');
  });

  it('counts the peak of runs running at once per account', async () => {
    sim.resetCounters();
    const runs = await Promise.all([1, 2, 3].map((i) => createRun(sim, `parallel ${i}`)));
    await Promise.all(runs.map((r) => finish(sim, r.id)));
    expect(sim.counters().peakConcurrentRuns.alice).toBe(3);
  });

  it('uses @duration over the default', async () => {
    // A default of ten minutes: a run without @duration cannot end while this test runs, so
    // the @duration=0 run ending first shows its own duration was used (no stopwatch).
    const slowSim = await startSim({ defaultDurationMs: 600_000 });
    try {
      const slow = await createRun(slowSim, 'default duration');
      const quick = await finish(slowSim, (await createRun(slowSim, 'quick @duration=0')).id);
      expect(quick.status).toBe('completed');
      expect((await call(slowSim, 'GET', `/runs/${slow.id}`)).body.status).toBe('running');
    } finally {
      await slowSim.close();
    }
  });
});
