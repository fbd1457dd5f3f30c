import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type Sim } from '../../src/sim/index.js';
import { BOB, call, createRun, finish, respond } from './helpers.js';

let sim: Sim;
beforeAll(async () => {
  sim = await startSim({ defaultDurationMs: 20 });
});
afterAll(() => sim.close());

describe('POST /runs', () => {
  it('admits a running run on a new thread', async () => {
    const run = await createRun(sim, 'What folds? @duration=20ms');
    expect(run).toMatchObject({ object: 'run', status: 'running', output: { text: '', tool_results: [] } });
    expect(run.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(run.thread_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(run.created_at).toISOString()).toBe(run.created_at);
    const done = await finish(sim, run.id);
    expect(done.status).toBe('completed');
    expect(done.output.text).toContain('What folds?');
    expect(done.output.text).not.toContain('@duration');
  });

  it('rejects a missing, blank or non-string input with 400 invalid_request', async () => {
    for (const body of [{}, { input: '' }, { input: '   ' }, { input: 3 }, [], { input: 'x', thread_id: 5 }]) {
      const r = await call(sim, 'POST', '/runs', { body });
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe('invalid_request');
      expect(r.body.request_id).toBe(r.headers.get('x-request-id'));
    }
    const bad = await fetch(`${sim.url}/runs`, { method: 'POST', headers: { authorization: 'Bearer sim-key-alice' }, body: '{nope' });
    expect(bad.status).toBe(400);
  });

  it('answers 404 for an unknown thread or another account\'s thread', async () => {
    const r = await call(sim, 'POST', '/runs', { body: { input: 'x', thread_id: '00000000-0000-4000-8000-000000000000' } });
    expect(r.status).toBe(404);
    const run = await createRun(sim, 'mine');
    await finish(sim, run.id);
    const other = await call(sim, 'POST', '/runs', { key: BOB, body: { input: 'x', thread_id: run.thread_id } });
    expect(other.status).toBe(404);
    expect(other.body.error.code).toBe('not_found');
  });

  it('answers 409 thread_busy while the thread has a run going, and admits after', async () => {
    // Long enough that the second request meets it running, however busy the machine.
    const run = await createRun(sim, 'busy @duration=3000ms');
    const r = await call(sim, 'POST', '/runs', { body: { input: 'again', thread_id: run.thread_id } });
    expect(r.status).toBe(409);
    expect(r.body.error.code).toBe('thread_busy');
    await finish(sim, run.id);
    const next = await createRun(sim, 'again', { threadId: run.thread_id });
    expect(next.thread_id).toBe(run.thread_id);
    const done = await finish(sim, next.id);
    expect(done.output.text).toContain('Continuing a thread with 2 earlier messages');
  });

  it('replays an Idempotency-Key: same run, counted once', async () => {
    sim.resetCounters();
    const a = await createRun(sim, 'idem question', { idem: 'key-1' });
    const b = await call(sim, 'POST', '/runs', { body: { input: 'idem question' }, headers: { 'idempotency-key': 'key-1' } });
    expect(b.status).toBe(200);
    expect(b.body.id).toBe(a.id);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    // Bob's identical key is his own.
    const c = await createRun(sim, 'idem question', { idem: 'key-1', key: BOB });
    expect(c.id).not.toBe(a.id);
    const counters = sim.counters();
    expect(counters.runsAdmitted).toBe(2);
    expect(counters.admissionsByKey['POST /runs|key-1']).toBe(2);
    expect(counters.admissionsByInput['idem question']).toBe(2);
    expect(counters.requestsByRoute['POST /runs']).toBe(3);
    await finish(sim, a.id);
    await finish(sim, c.id, BOB);
  });

  it('replays a key even when the thread is now busy', async () => {
    const a = await createRun(sim, 'slow @duration=2000ms');
    const b = await call(sim, 'POST', '/runs', { body: { input: 'x', thread_id: a.thread_id }, headers: { 'idempotency-key': 'k-busy' } });
    expect(b.status).toBe(409);
    const c = await createRun(sim, 'y', { idem: 'k-run' });
    const replay = await call(sim, 'POST', '/runs', { body: { input: 'y' }, headers: { 'idempotency-key': 'k-run' } });
    expect(replay.body.id).toBe(c.id);
    await finish(sim, a.id);
    await finish(sim, c.id);
  });

  it('refuses an Idempotency-Key over 200 characters or empty', async () => {
    const long = await call(sim, 'POST', '/runs', { body: { input: 'x' }, headers: { 'idempotency-key': 'k'.repeat(201) } });
    expect(long.status).toBe(400);
    expect(long.body.error.message).toMatch(/200/);
    const ok = await call(sim, 'POST', '/runs', { body: { input: 'x' }, headers: { 'idempotency-key': 'k'.repeat(200) } });
    expect(ok.status).toBe(200);
    await finish(sim, ok.body.id);
  });
});

describe('GET /runs/{id}', () => {
  it('shows what has been written so far, then the final state', async () => {
    const run = await createRun(sim, 'partial @duration=2000ms @deltas=2');
    const early = await call(sim, 'GET', `/runs/${run.id}`);
    expect(early.status).toBe(200);
    expect(early.body.status).toBe('running');
    const done = await finish(sim, run.id);
    const late = await call(sim, 'GET', `/runs/${run.id}`);
    expect(late.body).toEqual(done);
    expect(late.body.completed_at).not.toBeNull();
  });

  it('is 404 for unknown ids and other accounts', async () => {
    expect((await call(sim, 'GET', '/runs/nope')).status).toBe(404);
    const run = await createRun(sim, 'private');
    expect((await call(sim, 'GET', `/runs/${run.id}`, { key: BOB })).status).toBe(404);
    await finish(sim, run.id);
  });
});

describe('final states', () => {
  it('@fail ends failed with an error', async () => {
    const run = await finish(sim, (await createRun(sim, 'doomed @fail')).id);
    expect(run.status).toBe('failed');
    expect(run.error).toMatchObject({ code: 'agent_error' });
  });

  it('@status=NAME ends with that status', async () => {
    const run = await finish(sim, (await createRun(sim, 'odd @status=exploded')).id);
    expect(run.status).toBe('exploded');
  });

  it('@status=cancelling ends cancelled', async () => {
    const run = await createRun(sim, 'cancel me @status=cancelling @duration=30ms');
    const done = await finish(sim, run.id);
    expect(done.status).toBe('cancelled');
  });
});

describe('maxRunningPerAccount', () => {
  it('answers 429 too_many_runs with Retry-After past the cap', async () => {
    // The first run outlasts the test: the second request meets it however slow the machine is.
    const capped = await startSim({ defaultDurationMs: 600_000, maxRunningPerAccount: 1 });
    try {
      await createRun(capped, 'one');
      const r = await call(capped, 'POST', '/runs', { body: { input: 'two' } });
      expect(r.status).toBe(429);
      expect(r.body.error.code).toBe('too_many_runs');
      expect(r.headers.get('retry-after')).toBe('1');
      expect((await call(capped, 'POST', '/runs', { key: BOB, body: { input: 'bob' } })).status).toBe(200);
      expect(capped.counters().peakConcurrentRuns.alice).toBe(1);
    } finally {
      await capped.close();
    }
  });
});

describe('POST /runs/{id}/respond', () => {
  it('walks a chain through every pause type and names each answer', async () => {
    const first = await createRun(sim, 'chain @confirm=12.5 @choice=multi @image @tool=mystery_tool');
    let run = await finish(sim, first.id);
    expect(run.status).toBe('requires_action');
    expect(run.required_action).toEqual({
      tool: 'confirm_scope',
      input: { objective: expect.any(String), steps: expect.any(Array), instead: expect.any(String), cost: 12.5 },
    });
    let r = await respond(sim, run.id, { approved: true });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'running', thread_id: first.thread_id, previous_run_id: run.id });
    expect(r.body.id).not.toBe(run.id);

    run = await finish(sim, r.body.id);
    expect(run.required_action.tool).toBe('ask_choice');
    expect(run.required_action.input.allowMultiple).toBe(true);
    expect(run.required_action.input.options.map((o: any) => o.id)).toEqual(['a', 'b', 'c']);
    r = await respond(sim, run.id, { decision: 'chosen', chosen: ['b', 'c'], note: 'cheap first' });
    expect(r.status).toBe(200);

    run = await finish(sim, r.body.id);
    expect(run.required_action).toEqual({ tool: 'request_quality_image', input: { prompt: expect.any(String), reason: expect.any(String) } });
    r = await respond(sim, run.id, { approved: false });

    run = await finish(sim, r.body.id);
    expect(run.required_action).toEqual({ tool: 'mystery_tool', input: { detail: expect.any(String) } });
    r = await respond(sim, run.id, { whatever: [1, 2] });
    expect(r.status).toBe(200);

    run = await finish(sim, r.body.id);
    expect(run.status).toBe('completed');
    expect(run.output.text).toContain(
      'Decisions: confirm_scope: approved; ask_choice: chosen b,c (note: cheap first); request_quality_image: declined; mystery_tool: answered {"whatever":[1,2]}.',
    );
    const thread = await call(sim, 'GET', `/threads/${first.thread_id}`);
    expect(thread.body.latest_run_id).toBe(run.id);
    expect(thread.body.messages.map((m: any) => m.role)).toEqual(['user', 'assistant', 'assistant', 'assistant', 'assistant', 'assistant']);
  });

  it('a declined confirm_scope gives the narrow answer and skips later pauses', async () => {
    const run = await finish(sim, (await createRun(sim, 'wide @confirm @choice')).id);
    const r = await respond(sim, run.id, { approved: false });
    const last = await finish(sim, r.body.id);
    expect(last.status).toBe('completed');
    expect(last.output.text).toContain('Narrow answer:');
    expect(last.output.text).toContain('confirm_scope: declined');
  });

  it('a declined ask_choice is accepted and named', async () => {
    const run = await finish(sim, (await createRun(sim, 'pick @choice')).id);
    expect(run.required_action.input.allowMultiple).toBe(false);
    const r = await respond(sim, run.id, { decision: 'declined' });
    expect((await finish(sim, r.body.id)).output.text).toContain('ask_choice: declined');
  });

  it('validates the answer shape per tool with 400 invalid_request', async () => {
    const confirm = await finish(sim, (await createRun(sim, 'v1 @confirm')).id);
    for (const answer of [undefined, 'yes', { approved: 'yes' }, {}]) {
      const r = answer === undefined ? await call(sim, 'POST', `/runs/${confirm.id}/respond`, { body: {} }) : await respond(sim, confirm.id, answer);
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe('invalid_request');
    }
    const choice = await finish(sim, (await createRun(sim, 'v2 @choice')).id);
    for (const answer of [
      { decision: 'chosen', chosen: ['z'] },
      { decision: 'chosen', chosen: [] },
      { decision: 'chosen', chosen: ['a', 'b'] },
      { decision: 'chosen', chosen: ['a', 'a'] },
      { decision: 'maybe' },
      { decision: 'chosen', chosen: ['a'], note: 7 },
    ]) {
      const r = await respond(sim, choice.id, answer);
      expect(r.status, JSON.stringify(answer)).toBe(400);
    }
    expect((await respond(sim, choice.id, { decision: 'chosen', chosen: ['a'] })).status).toBe(200);
    const image = await finish(sim, (await createRun(sim, 'v3 @image')).id);
    expect((await respond(sim, image.id, { approved: 1 })).status).toBe(400);
    const unknown = await finish(sim, (await createRun(sim, 'v4 @tool=other')).id);
    expect((await respond(sim, unknown.id, ['array'])).status).toBe(400);
  });

  it('replays a respond key and refuses a second answer with 409 run_not_waiting', async () => {
    sim.resetCounters();
    const run = await finish(sim, (await createRun(sim, 'once @confirm')).id);
    const a = await respond(sim, run.id, { approved: true }, 'resp-1');
    const b = await respond(sim, run.id, { approved: true }, 'resp-1');
    expect(b.status).toBe(200);
    expect(b.body.id).toBe(a.body.id);
    const c = await respond(sim, run.id, { approved: true }, 'resp-2');
    expect(c.status).toBe(409);
    expect(c.body.error.code).toBe('run_not_waiting');
    expect((await respond(sim, run.id, { approved: true })).status).toBe(409);
    expect(sim.counters().respondRuns).toBe(1);
    expect(sim.counters().admissionsByKey['POST /runs/:id/respond|resp-1']).toBe(1);
    // One wait measured, for the respond that created a run (not the replay nor the refusals).
    expect(sim.counters().pauseToRespondMs).toHaveLength(1);
    expect(sim.counters().pauseToRespondMs[0]).toBeGreaterThanOrEqual(0);
    // The answered run keeps its paused state.
    expect((await call(sim, 'GET', `/runs/${run.id}`)).body.status).toBe('requires_action');
    await finish(sim, a.body.id);
  });

  it('answers 409 run_not_waiting for a running run and 404 for unknown or foreign runs', async () => {
    const run = await createRun(sim, 'not paused @duration=2000ms');
    const r = await respond(sim, run.id, { approved: true });
    expect(r.status).toBe(409);
    expect(r.body.error.code).toBe('run_not_waiting');
    expect((await respond(sim, 'nope', { approved: true })).status).toBe(404);
    const paused = await finish(sim, run.id);
    expect(paused.status).toBe('completed');
    const waiting = await finish(sim, (await createRun(sim, 'bob cannot @confirm')).id);
    const foreign = await call(sim, 'POST', `/runs/${waiting.id}/respond`, { key: BOB, body: { answer: { approved: true } } });
    expect(foreign.status).toBe(404);
  });

  it('answers 404 when the paused run\'s thread was deleted', async () => {
    const run = await finish(sim, (await createRun(sim, 'orphan @confirm')).id);
    expect((await call(sim, 'DELETE', `/threads/${run.thread_id}`)).status).toBe(200);
    expect((await call(sim, 'GET', `/runs/${run.id}`)).status).toBe(200);
    expect((await respond(sim, run.id, { approved: true })).status).toBe(404);
  });
});
