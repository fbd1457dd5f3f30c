import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type Sim } from '../../src/sim/index.js';
import { BOB, call, createRun, finish } from './helpers.js';

let sim: Sim;
beforeAll(async () => {
  sim = await startSim({ defaultDurationMs: 10 });
});
afterAll(() => sim.close());

describe('threads', () => {
  it('lists the account\'s threads newest first, at most fifty', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 52; i++) {
      const run = await createRun(sim, `question ${i} @duration=0`);
      ids.push(run.thread_id);
      await finish(sim, run.id);
    }
    const list = await call(sim, 'GET', '/threads');
    expect(list.status).toBe(200);
    expect(list.body.object).toBe('list');
    expect(list.body.data).toHaveLength(50);
    expect(list.body.data[0]).toEqual({
      object: 'thread',
      id: ids[51],
      title: 'question 51 @duration=0',
      updated_at: expect.any(String),
      message_count: 2,
    });
    expect(list.body.data.map((t: any) => t.id)).toEqual(ids.slice(2).reverse());
    expect((await call(sim, 'GET', '/threads', { key: BOB })).body.data).toEqual([]);
  });

  it('truncates long titles from the first message', async () => {
    const run = await createRun(sim, `${'long '.repeat(40)}end`);
    await finish(sim, run.id);
    const t = await call(sim, 'GET', `/threads/${run.thread_id}`);
    expect(t.body.title.length).toBeLessThanOrEqual(60);
    expect(t.body.title.endsWith('…')).toBe(true);
  });

  it('reads a thread with its messages and latest run', async () => {
    // Long enough to be read while it runs, however busy the machine (the default is 10 ms).
    const run = await createRun(sim, 'first @files=md @duration=3s');
    const mid = await call(sim, 'GET', `/threads/${run.thread_id}`);
    expect(mid.body.messages).toHaveLength(1);
    expect(mid.body.latest_run_id).toBe(run.id);
    const done = await finish(sim, run.id);
    const t = await call(sim, 'GET', `/threads/${run.thread_id}`);
    expect(t.body).toMatchObject({ id: run.thread_id, title: 'first @files=md @duration=3s', latest_run_id: run.id });
    expect(t.body.messages).toEqual([
      { id: expect.any(String), role: 'user', text: 'first @files=md @duration=3s', tool_results: [] },
      { id: expect.any(String), role: 'assistant', text: done.output.text, tool_results: done.output.tool_results },
    ]);
    expect((await call(sim, 'GET', `/threads/${run.thread_id}`, { key: BOB })).status).toBe(404);
  });

  it('deletes a thread for good; its files stay fetchable', async () => {
    const done = await finish(sim, (await createRun(sim, 'to delete @files=csv')).id);
    const del = await call(sim, 'DELETE', `/threads/${done.thread_id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ id: done.thread_id, object: 'thread', deleted: true });
    expect((await call(sim, 'GET', `/threads/${done.thread_id}`)).status).toBe(404);
    expect((await call(sim, 'DELETE', `/threads/${done.thread_id}`)).status).toBe(404);
    expect((await call(sim, 'POST', '/runs', { body: { input: 'x', thread_id: done.thread_id } })).status).toBe(404);
    const list = await call(sim, 'GET', '/threads');
    expect(list.body.data.some((t: any) => t.id === done.thread_id)).toBe(false);
    const file = await fetch(done.output.tool_results[1].files[0].url, { headers: { authorization: 'Bearer sim-key-alice' } });
    expect(file.status).toBe(200);
    await file.arrayBuffer();
  });

  it('will not let another account delete a thread', async () => {
    const run = await createRun(sim, 'keep mine');
    expect((await call(sim, 'DELETE', `/threads/${run.thread_id}`, { key: BOB })).status).toBe(404);
    expect((await call(sim, 'GET', `/threads/${run.thread_id}`)).status).toBe(200);
    await finish(sim, run.id);
  });
});
