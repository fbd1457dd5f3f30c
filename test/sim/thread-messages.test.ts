import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type Sim } from '../../src/sim/index.js';
import { call, createRun, finish, respond } from './helpers.js';

// A thread keeps only its runs; the transcript is worked out from them.
let sim: Sim;
beforeAll(async () => {
  sim = await startSim({ defaultDurationMs: 10 });
});
afterAll(() => sim.close());

describe('thread transcript', () => {
  it('has the user message of each POST /runs and the assistant message of each finished run, in order, with stable ids', async () => {
    const first = await createRun(sim, 'plan this @confirm @files=md');
    const paused = await finish(sim, first.id);
    const r = await respond(sim, first.id, { approved: true });
    const answered = await finish(sim, r.body.id);
    // Long enough that the read below meets it running, however busy the machine.
    const second = await createRun(sim, 'and then? @duration=5000ms', { threadId: first.thread_id });
    const running = (await call(sim, 'GET', `/threads/${first.thread_id}`)).body;
    const last = await finish(sim, second.id);
    const t = (await call(sim, 'GET', `/threads/${first.thread_id}`)).body;
    expect(t.messages.map((m: any) => [m.role, m.text])).toEqual([
      ['user', 'plan this @confirm @files=md'],
      ['assistant', paused.output.text],
      ['assistant', answered.output.text],
      ['user', 'and then? @duration=5000ms'],
      ['assistant', last.output.text],
    ]);
    expect(t.messages[2].tool_results).toEqual(answered.output.tool_results);
    expect(t.message_count).toBe(5);
    expect(t.latest_run_id).toBe(second.id);
    // While the last run was going, its user message was there and no answer yet.
    expect(running.messages).toHaveLength(4);
    expect(running.messages.map((m: any) => m.id)).toEqual(t.messages.slice(0, 4).map((m: any) => m.id));
    expect(new Set(t.messages.map((m: any) => m.id)).size).toBe(5);
    const again = (await call(sim, 'GET', `/threads/${first.thread_id}`)).body;
    expect(again.messages).toEqual(t.messages);
    expect(last.output.text).toContain('Continuing a thread with 3 earlier messages');
    const listed = (await call(sim, 'GET', '/threads')).body.data.find((x: any) => x.id === first.thread_id);
    expect(listed.message_count).toBe(5);
  });
});
