import { inspect } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  AuthError,
  ConflictError,
  isRunFailure,
  isRunFinished,
  isTextDeltaEvent,
  isToolResultEvent,
  NotFoundError,
  RateLimitError,
  ServerError,
  ServiceClient,
  type ClientLogEvent,
  type ClientOptions,
  type Run,
  type RunEvent,
  type ThrottleEvent,
} from '../../src/api/index.js';
import { InputError } from '../../src/errors.js';
import { startSim, type Sim } from '../../src/sim/index.js';
import { KEY, sendJson, startTestServer } from './helpers/test-server.js';

let sim: Sim;
const clients: ServiceClient[] = [];

beforeAll(async () => {
  sim = await startSim({ defaultDurationMs: 30, modelJobMs: 60 });
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await sim.close();
});

beforeEach(() => {
  sim.faults.clear();
  sim.resetCounters();
});

function client(opts: Partial<ClientOptions> = {}, key = 'sim-key-alice'): ServiceClient {
  const c = new ServiceClient({
    baseUrl: sim.url,
    apiKey: key,
    pollIntervalMs: 20,
    modelPollIntervalMs: 20,
    retry: { baseDelayMs: 5, maxDelayMs: 50, threadBusyDelayMs: 20 },
    ...opts,
  });
  clients.push(c);
  return c;
}

let keySeq = 0;
const newKey = () => `test-key-${process.pid}-${++keySeq}`;

async function finish(c: ServiceClient, input: string): Promise<Run> {
  const run = await c.createRun({ input }, { idempotencyKey: newKey() });
  return c.followRun(run.id);
}

describe('ServiceClient against the simulator', () => {
  it('creates a run, follows its events to the end and reads it', async () => {
    const c = client();
    const created = await c.createRun({ input: 'What is a kinase? @deltas=3' }, { idempotencyKey: newKey() });
    expect(created.status).toBe('running');
    expect(typeof created.thread_id).toBe('string');
    const events: RunEvent[] = [];
    const done = await c.followRun(created.id, { onEvent: (e) => events.push(e) });
    expect(done.status).toBe('completed');
    expect(isRunFinished(done)).toBe(true);
    expect(isRunFailure(done.status)).toBe(false);
    expect(events.filter(isTextDeltaEvent)).toHaveLength(3);
    expect(events.some(isToolResultEvent)).toBe(true);
    expect(events.at(-1)?.event).toBe('run');
    const ids = events.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => (a ?? 0) - (b ?? 0)));
    const read = await c.getRun(created.id);
    expect(read).toMatchObject({ id: created.id, status: 'completed', output: { text: done.output?.text } });
  });

  it('returns the same run for a repeated idempotency key', async () => {
    const c = client();
    const key = newKey();
    const a = await c.createRun({ input: 'same key twice' }, { idempotencyKey: key });
    const b = await c.createRun({ input: 'same key twice' }, { idempotencyKey: key });
    expect(b.id).toBe(a.id);
    expect(sim.counters().runsAdmitted).toBe(1);
  });

  it('refuses an over-long idempotency key before sending anything', async () => {
    const c = client();
    await expect(c.createRun({ input: 'x' }, { idempotencyKey: 'k'.repeat(201) })).rejects.toBeInstanceOf(InputError);
    expect(sim.counters().requestsByRoute).toEqual({});
  });

  it('answers each kind of pause and the answers reach the agent', async () => {
    const c = client();
    let run = await finish(c, 'Plan it @confirm=4 @choice=multi @image');
    expect(run.status).toBe('requires_action');
    expect(run.required_action).toMatchObject({ tool: 'confirm_scope', input: { cost: 4 } });
    run = await c.followRun((await c.respond(run.id, { approved: true }, { idempotencyKey: newKey() })).id);
    expect(run.required_action?.tool).toBe('ask_choice');
    run = await c.followRun(
      (await c.respond(run.id, { decision: 'chosen', chosen: ['a', 'c'], note: 'both' }, { idempotencyKey: newKey() })).id,
    );
    expect(run.required_action?.tool).toBe('request_quality_image');
    const next = await c.respond(run.id, { approved: false }, { idempotencyKey: newKey() });
    expect(next.status).toBe('running');
    run = await c.followRun(next.id);
    expect(run.status).toBe('completed');
    expect(run.output?.text).toContain('confirm_scope: approved');
    expect(run.output?.text).toMatch(/ask_choice: chosen a, ?c/);
    expect(sim.counters().respondRuns).toBe(3);
  });

  it('refuses an answer of no known shape before sending it', async () => {
    const c = client();
    await expect(c.respond('r', { approve: true } as never, { idempotencyKey: newKey() })).rejects.toBeInstanceOf(InputError);
    expect(sim.counters().requestsByRoute).toEqual({});
  });

  it('streams one connection with streamRunEvents, ending at the final run event', async () => {
    const c = client();
    const run = await c.createRun({ input: 'stream me @deltas=2' }, { idempotencyKey: newKey() });
    const events: RunEvent[] = [];
    for await (const e of c.streamRunEvents(run.id)) events.push(e);
    expect(events.at(-1)?.event).toBe('run');
    const after = events.at(-2)?.id ?? 0;
    const tail: RunEvent[] = [];
    for await (const e of c.streamRunEvents(run.id, { after })) tail.push(e);
    expect(tail.map((e) => e.event)).toEqual(['run']);
  });

  it('reconnects after streams that end early, with no event twice', async () => {
    sim.faults.set({ sseEndAfterEvents: 2 });
    const logs: ClientLogEvent[] = [];
    const c = client({ onLog: (e) => logs.push(e) });
    const run = await c.createRun({ input: 'long stream @deltas=7' }, { idempotencyKey: newKey() });
    const ids: (number | null)[] = [];
    const done = await c.followRun(run.id, { onEvent: (e) => ids.push(e.id) });
    expect(done.status).toBe('completed');
    expect(new Set(ids).size).toBe(ids.length);
    expect(logs.filter((l) => l.type === 'stream-reconnect').length).toBeGreaterThanOrEqual(3);
    expect(sim.counters().requestsByRoute['GET /runs/:id/events']).toBeGreaterThanOrEqual(4);
  });

  it('falls back to polling when streams bring nothing, and polls in poll mode', async () => {
    sim.faults.set({ sseEndAfterEvents: 0 });
    const logs: ClientLogEvent[] = [];
    const c = client({ onLog: (e) => logs.push(e) });
    const run = await c.createRun({ input: 'no stream @duration=100ms' }, { idempotencyKey: newKey() });
    expect((await c.followRun(run.id)).status).toBe('completed');
    expect(logs.some((l) => l.type === 'stream-fallback')).toBe(true);

    sim.resetCounters();
    const polled = await c.createRun({ input: 'poll me @fail' }, { idempotencyKey: newKey() });
    const end = await c.followRun(polled.id, { mode: 'poll' });
    expect(end.status).toBe('failed');
    expect(isRunFailure(end.status)).toBe(true);
    expect(sim.counters().requestsByRoute['GET /runs/:id/events']).toBeUndefined();
  });

  it('keeps unknown final statuses verbatim', async () => {
    const c = client();
    const run = await finish(c, 'odd ending @status=partially_done');
    expect(run.status).toBe('partially_done');
    expect(isRunFailure(run.status)).toBe(false);
  });

  it('waits out thread_busy and then continues the thread', async () => {
    const logs: ClientLogEvent[] = [];
    const c = client({ onLog: (e) => logs.push(e) });
    const first = await c.createRun({ input: 'first @duration=150ms' }, { idempotencyKey: newKey() });
    const second = await c.createRun({ input: 'second', thread_id: first.thread_id }, { idempotencyKey: newKey() });
    expect(second.thread_id).toBe(first.thread_id);
    expect(logs.some((l) => l.type === 'retry' && l.reason === 'thread_busy')).toBe(true);
    expect((await c.followRun(second.id)).status).toBe('completed');
  });

  it('reports a thread that stays busy as ConflictError', async () => {
    const c = client({ retry: { threadBusyDelayMs: 5, threadBusyMaxAttempts: 3 } });
    const first = await c.createRun({ input: 'hog @duration=5s' }, { idempotencyKey: newKey() });
    const err = await c.createRun({ input: 'blocked', thread_id: first.thread_id }, { idempotencyKey: newKey() }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConflictError);
    expect((err as ConflictError).threadBusy).toBe(true);
    expect((err as Error).message).toContain('thread busy 3/3');
  });

  it('lists, reads and deletes threads', async () => {
    const c = client();
    const run = await finish(c, 'thread me');
    const list = await c.listThreads();
    expect(list.data.some((t) => t.id === run.thread_id)).toBe(true);
    const thread = await c.getThread(run.thread_id);
    expect(thread.latest_run_id).toBe(run.id);
    expect(thread.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    await c.deleteThread(run.thread_id);
    await expect(c.getThread(run.thread_id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('downloads every file of a run; another account and an expired file get 404', async () => {
    const c = client();
    const run = await finish(c, 'make files @files=md,csv,png:noname @size=20000');
    const refs = (run.output?.tool_results ?? []).flatMap((t) => t.files);
    expect(refs).toHaveLength(3);
    for (const ref of refs) {
      const file = await c.openFile(ref.url);
      let bytes = 0;
      for await (const chunk of file.body) bytes += (chunk as Buffer).length;
      expect(bytes).toBe(20000);
      expect(file.mediaType).toMatch(/^(text|image)\//);
    }
    const bob = client({}, 'sim-key-bob');
    await expect(bob.openFile(refs[0]!.url)).rejects.toBeInstanceOf(NotFoundError);
    sim.clock.advance(31 * 24 * 3600 * 1000);
    await expect(c.openFile(refs[0]!.url)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('hides another account’s run and reports a bad key as AuthError without the key', async () => {
    const c = client();
    const run = await c.createRun({ input: 'mine' }, { idempotencyKey: newKey() });
    await expect(client({}, 'sim-key-bob').getRun(run.id)).rejects.toBeInstanceOf(NotFoundError);
    const badKey = 'sim-key-WRONG-secret';
    const err = await client({}, badKey).listThreads().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthError);
    expect(inspect(err, { depth: 10, showHidden: true })).not.toContain(badKey);
  });

  it('describes a model and runs it inline and as a polled job', async () => {
    const c = client();
    const description = await c.describeModel('echo');
    expect(description.inputs.find((i) => i.name === 'text')).toMatchObject({ type: 'string', required: true });
    expect(description.outputs.map((o) => o.name)).toContain('text');

    const inline = await c.runModel('echo', { inputs: { text: 'hi', repeat: 2 } });
    expect(inline.httpStatus).toBe(200);
    expect(inline.run).toMatchObject({ status: 'succeeded', outputs: { text: 'hi hi' } });

    const job = await c.runModel('echo', { inputs: { text: 'later' }, mode: 'async' }, { idempotencyKey: newKey() });
    expect(job.httpStatus).toBe(202);
    expect(job.run.status).toBe('running');
    expect(job.run.poll_url).not.toBeNull();
    const polls: string[] = [];
    const finished = await c.waitModelRun(job.run, { onPoll: (r) => polls.push(r.status) });
    expect(finished.status).toBe('succeeded');
    expect(polls.at(-1)).toBe('succeeded');
    expect((await c.getModelRun(job.run.id)).status).toBe('succeeded');
    expect((await c.getModelRun(job.run.poll_url!)).id).toBe(job.run.id);
  });

  it('does not retry a model run that failed after the service may have acted', async () => {
    sim.faults.set({ error5xxAfter: 1, routes: ['POST /models/:id/runs'] });
    const c = client();
    await expect(c.runModel('echo', { inputs: { text: 'once' } })).rejects.toBeInstanceOf(ServerError);
    expect(sim.counters().modelRunsAdmitted).toBe(1);
    expect(sim.counters().requestsByRoute['POST /models/:id/runs']).toBe(1);
  });

  it('retries a model run refused with 429', async () => {
    sim.faults.set({ rate429: 0.5, retryAfterSeconds: 0, routes: ['POST /models/:id/runs'] });
    const c = client({ retry: { maxAttempts: 20, baseDelayMs: 1 } });
    for (let i = 0; i < 10; i++) await c.runModel('echo', { inputs: { text: `n${i}` } });
    const counters = sim.counters();
    expect(counters.modelRunsAdmitted).toBe(10);
    expect(counters.faultsInjected.rate429).toBeGreaterThan(0);
  });

  it('tells throttle subscribers of every 429 as a typed event, run and model-run creates marked as admissions', async () => {
    sim.faults.set({ rate429: 1, retryAfterSeconds: 0, routes: ['POST /runs', 'POST /models/:id/runs', 'GET /threads'] });
    const c = client({ retry: { maxAttempts: 2, baseDelayMs: 1 } });
    const seen: ThrottleEvent[] = [];
    const off = c.onThrottle((e) => seen.push(e));
    c.onThrottle(() => {
      throw new Error('a broken listener is ignored');
    });
    await expect(c.createRun({ input: 'x' }, { idempotencyKey: newKey() })).rejects.toThrow(RateLimitError);
    await expect(c.runModel('echo', { inputs: { text: 'x' } })).rejects.toThrow(RateLimitError);
    await expect(c.listThreads()).rejects.toThrow(RateLimitError);
    expect(seen.map((e) => [e.method, e.path, e.admission, e.attempt])).toEqual([
      ['POST', '/runs', true, 1],
      ['POST', '/runs', true, 2],
      ['POST', '/models/echo/runs', true, 1],
      ['POST', '/models/echo/runs', true, 2],
      ['GET', '/threads', false, 1],
      ['GET', '/threads', false, 2],
    ]);
    expect(seen[0]).toMatchObject({ type: 'throttle', retryAfter: '0' });
    off();
    await expect(c.listThreads()).rejects.toThrow(RateLimitError);
    expect(seen).toHaveLength(6);
  });

  it('admits exactly 500 runs through 5xx, dropped connections and 429s', async () => {
    sim.faults.set({
      error5xxBefore: 0.05,
      error5xxAfter: 0.05,
      dropBefore: 0.025,
      dropAfter: 0.025,
      rate429: 0.05,
      retryAfterSeconds: 0,
      routes: ['POST /runs'],
    });
    const logs: ClientLogEvent[] = [];
    const c = client({ retry: { maxAttempts: 15, baseDelayMs: 5, maxDelayMs: 40 }, onLog: (e) => logs.push(e) });
    const runs = await Promise.all(
      Array.from({ length: 500 }, (_, i) => c.createRun({ input: `bulk question ${i}` }, { idempotencyKey: `bulk-${i}` })),
    );
    expect(new Set(runs.map((r) => r.id)).size).toBe(500);
    const counters = sim.counters();
    expect(counters.runsAdmitted).toBe(500);
    expect(Object.keys(counters.admissionsByInput)).toHaveLength(500);
    expect(Object.values(counters.admissionsByInput).every((n) => n === 1)).toBe(true);
    for (const kind of ['error5xxBefore', 'error5xxAfter', 'dropBefore', 'dropAfter', 'rate429']) {
      expect(counters.faultsInjected[kind], kind).toBeGreaterThan(0);
    }
    expect(logs.filter((l) => l.type === 'retry').length).toBeGreaterThan(50);
    expect(JSON.stringify(logs)).not.toContain('sim-key-alice');
  });
});

describe('ServiceClient edge cases (tiny servers)', () => {
  it('treats a 404 on a retried delete as already deleted, and a first 404 as not found', async () => {
    let n = 0;
    const server = await startTestServer((req, res) => {
      n += 1;
      if (req.url?.endsWith('/gone')) return sendJson(res, 404, { error: { code: 'not_found' } });
      if (n === 1) return void res.socket?.destroy();
      sendJson(res, 404, { error: { code: 'not_found' } });
    });
    const c = new ServiceClient({ baseUrl: server.baseUrl, apiKey: KEY, sleep: async () => {} });
    try {
      await expect(c.deleteThread('t1')).resolves.toBeNull();
      await expect(c.deleteThread('gone')).rejects.toBeInstanceOf(NotFoundError);
    } finally {
      await c.close();
      await server.close();
    }
  });

  it('polls a model run by id when its poll URL is on another origin, and refuses to read that URL', async () => {
    let reads = 0;
    const server = await startTestServer((req, res) => {
      reads += 1;
      expect(req.url).toBe('/api/v1/model-runs/m1');
      sendJson(res, 200, { id: 'm1', status: reads < 2 ? 'running' : 'succeeded', outputs: { y: 1 } });
    });
    const c = new ServiceClient({ baseUrl: server.baseUrl, apiKey: KEY, sleep: async () => {} });
    try {
      const running = { id: 'm1', status: 'running', outputs: null, error: null, credits: null, poll_url: 'https://elsewhere.example/jobs/m1', page_url: null };
      await expect(c.getModelRun(running.poll_url)).rejects.toBeInstanceOf(InputError);
      expect((await c.waitModelRun(running)).status).toBe('succeeded');
      expect(reads).toBe(2);
    } finally {
      await c.close();
      await server.close();
    }
  });

  it('reads a root-relative poll URL on the base origin', async () => {
    const server = await startTestServer((req, res) => {
      expect(req.url).toBe('/api/v1/model-runs/m2?token=1');
      expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
      sendJson(res, 200, { id: 'm2', status: 'succeeded' });
    });
    const c = new ServiceClient({ baseUrl: server.baseUrl, apiKey: KEY });
    try {
      expect((await c.getModelRun('/api/v1/model-runs/m2?token=1')).id).toBe('m2');
    } finally {
      await c.close();
      await server.close();
    }
  });

  it('refuses ids that would address another resource', async () => {
    const c = new ServiceClient({ baseUrl: 'http://127.0.0.1:9/api/v1', apiKey: KEY });
    await expect(c.getRun('..')).rejects.toBeInstanceOf(InputError);
    await expect(c.getThread('')).rejects.toBeInstanceOf(InputError);
    await c.close();
  });
});
