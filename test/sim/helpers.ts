import type { Sim } from '../../src/sim/index.js';

/** Alice's and Bob's keys in the default simulator. */
export const ALICE = 'sim-key-alice';
export const BOB = 'sim-key-bob';

/** What a raw request gave back. */
export interface RawReply {
  status: number;
  headers: Headers;
  body: any;
}

/** A raw JSON request against the simulator's /api/v1 (no client library on purpose). */
export async function call(
  sim: Sim,
  method: string,
  path: string,
  opts: { key?: string | null; body?: unknown; headers?: Record<string, string> } = {},
): Promise<RawReply> {
  const headers: Record<string, string> = { ...opts.headers };
  const key = opts.key === undefined ? ALICE : opts.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${sim.url}${path}`, {
    method,
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

/** One parsed server-sent event. */
export interface Sse {
  id: number;
  event: string;
  data: any;
}

/** What one event-stream connection delivered. */
export interface SseRead {
  events: Sse[];
  retry: number | undefined;
  comments: number;
  contentType: string | null;
  status: number;
}

/** Reads an event stream until the server ends it. */
export async function readEvents(sim: Sim, runId: string, after?: number, key = ALICE): Promise<SseRead> {
  const q = after === undefined ? '' : `?after=${after}`;
  const res = await fetch(`${sim.url}/runs/${runId}/events${q}`, { headers: { authorization: `Bearer ${key}` } });
  const text = await res.text();
  const out: SseRead = { events: [], retry: undefined, comments: 0, contentType: res.headers.get('content-type'), status: res.status };
  for (const block of text.split('\n\n')) {
    if (!block.trim()) continue;
    const e: Partial<Sse> = {};
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) out.comments++;
      else if (line.startsWith('retry: ')) out.retry = Number(line.slice(7));
      else if (line.startsWith('id: ')) e.id = Number(line.slice(4));
      else if (line.startsWith('event: ')) e.event = line.slice(7);
      else if (line.startsWith('data: ')) e.data = JSON.parse(line.slice(6));
    }
    if (e.event !== undefined) out.events.push(e as Sse);
  }
  return out;
}

/** Resolves once the run's event stream delivers an event named `event` (rejects if it ends first). */
export async function untilEvent(sim: Sim, runId: string, event: string, key = ALICE): Promise<void> {
  const stop = new AbortController();
  const res = await fetch(`${sim.url}/runs/${runId}/events`, { headers: { authorization: `Bearer ${key}` }, signal: stop.signal });
  const decoder = new TextDecoder();
  let seen = '';
  try {
    for await (const chunk of res.body!) {
      seen += decoder.decode(chunk as Uint8Array, { stream: true });
      if (seen.includes(`\nevent: ${event}\n`) || seen.startsWith(`event: ${event}\n`)) return;
    }
    throw new Error(`the stream of ${runId} ended without a ${event} event`);
  } finally {
    stop.abort();
  }
}

/** Follows a run to its end over the event stream and returns the final run object. */
export async function finish(sim: Sim, runId: string, key = ALICE): Promise<any> {
  const { events } = await readEvents(sim, runId, undefined, key);
  const last = events.at(-1);
  if (last?.event !== 'run') throw new Error(`stream of ${runId} ended without a run event`);
  return last.data;
}

/** Creates a run and returns its object (asserting a 200). */
export async function createRun(sim: Sim, input: string, extra: { threadId?: string; key?: string; idem?: string } = {}): Promise<any> {
  const r = await call(sim, 'POST', '/runs', {
    key: extra.key,
    body: extra.threadId ? { input, thread_id: extra.threadId } : { input },
    headers: extra.idem ? { 'idempotency-key': extra.idem } : {},
  });
  if (r.status !== 200) throw new Error(`POST /runs: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** Answers a paused run; returns the raw reply. */
export function respond(sim: Sim, runId: string, answer: unknown, idem?: string): Promise<RawReply> {
  return call(sim, 'POST', `/runs/${runId}/respond`, {
    body: { answer },
    headers: idem ? { 'idempotency-key': idem } : {},
  });
}

/** Reads and events of runs, and reads of threads, to compare a simulator's state with another's. */
export async function recordState(sim: Sim, runIds: string[], threadIds: string[]) {
  const runs = await Promise.all(runIds.map(async (id) => ({ read: (await call(sim, 'GET', `/runs/${id}`)).body, events: (await readEvents(sim, id)).events })));
  const threads = await Promise.all(threadIds.map(async (id) => (await call(sim, 'GET', `/threads/${id}`)).body));
  return { runs, threads };
}

/** A plain, a file-making, a paused (then answered) and a cancelled run, all finished. */
export async function someFinishedRuns(sim: Sim) {
  const plain = await createRun(sim, 'Question 1 @duration=10ms', { idem: 'rt-plain' });
  const files = await createRun(sim, 'files @files=md,pdb:noname @size=2kb');
  const paused = await createRun(sim, 'plan @confirm=2');
  const cancelled = await createRun(sim, 'long @duration=3s');
  await Promise.all([plain, files, paused].map((r) => finish(sim, r.id)));
  await untilEvent(sim, cancelled.id, 'text.delta');
  await call(sim, 'POST', `/runs/${cancelled.id}/cancel`, { body: {} });
  await finish(sim, cancelled.id);
  const answer = await call(sim, 'POST', `/runs/${paused.id}/respond`, { body: { answer: { approved: false } } });
  await finish(sim, answer.body.id);
  const runs = [plain, files, paused, cancelled, answer.body];
  return { runIds: runs.map((r) => r.id), threadIds: [...new Set(runs.map((r) => r.thread_id as string))] };
}
