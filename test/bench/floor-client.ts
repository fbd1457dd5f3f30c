// The floor: the bare protocol and nothing else, as the reference resq's own cost is measured
// against (issue 23). For each question: POST /runs with an Idempotency-Key, then one event
// stream read to its final `run` event (reconnecting with `after` if the server closes it
// first). undici underneath, eventsource-parser for SSE; no state, no validation, no progress.
//   npx tsx test/bench/floor-client.ts BASE_URL KEY QUESTIONS.csv CONCURRENCY
// prints a JSON `start` line, then a JSON `end` line: { type, at, runs, completed }.
import { createParser } from 'eventsource-parser';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Agent } from 'undici';

/** Options of {@link runFloorClient}. */
export interface FloorClientOptions {
  baseUrl: string;
  apiKey: string;
  questions: string[];
  concurrency: number;
}

/** What the floor client did. */
export interface FloorClientResult {
  runs: number;
  completed: number;
}

interface Run {
  id: string;
  status: string;
}

/**
 * Failures after which a request is sent again: the server closed or reset the connection
 * before answering, or answered 408 (Node's server gives up on a request whose headers it
 * has not read within a minute: at C=10,000 on a loaded machine, see {@link timedOut}).
 */
const AGAIN = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'HTTP_408']);

/** Throws a code {@link again} sends again on, after reading the body, when the answer is 408. */
export async function timedOut<T extends { statusCode: number; body: { dump(): Promise<void> } }>(res: T): Promise<T> {
  if (res.statusCode !== 408) return res;
  await res.body.dump();
  throw Object.assign(new Error('HTTP 408'), { code: 'HTTP_408' });
}

/** `send`, sent again (at most twice more) after one of the failures in {@link AGAIN}. */
export async function again<T>(send: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (attempt >= 3 || !AGAIN.has(code ?? '')) throw err;
    }
  }
}

/** Runs every question to its final event the bare way; resolves when all are done. */
export async function runFloorClient(o: FloorClientOptions): Promise<FloorClientResult> {
  const dispatcher = new Agent({ keepAliveTimeout: 60_000, connections: null });
  const url = new URL(o.baseUrl);
  const origin = url.origin;
  const base = url.pathname.replace(/\/$/, '');
  const auth = `Bearer ${o.apiKey}`;
  const out: FloorClientResult = { runs: 0, completed: 0 };

  const submit = async (input: string, key: string): Promise<Run> => {
    const res = await again(async () => timedOut(await dispatcher.request({
      origin,
      path: `${base}/runs`,
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify({ input }),
    })));
    if (res.statusCode !== 201 && res.statusCode !== 200) throw new Error(`POST /runs: HTTP ${res.statusCode}`);
    return (await res.body.json()) as Run;
  };

  /** Reads the run's events until its final `run` event; returns that run's status. */
  const follow = async (id: string): Promise<string> => {
    let after = -1;
    for (;;) {
      const res = await again(async () => timedOut(await dispatcher.request({
        origin,
        path: `${base}/runs/${id}/events?after=${after}`,
        method: 'GET',
        headers: { authorization: auth, accept: 'text/event-stream' },
      })));
      if (res.statusCode !== 200) throw new Error(`GET /runs/${id}/events: HTTP ${res.statusCode}`);
      let final: string | null = null;
      const parser = createParser({
        onEvent: (e) => {
          if (e.id !== undefined) after = Number(e.id);
          if (e.event !== 'run') return;
          const status = (JSON.parse(e.data) as Run).status;
          if (status !== 'running' && status !== 'cancelling') final = status;
        },
      });
      res.body.setEncoding('utf8');
      for await (const chunk of res.body) {
        parser.feed(chunk as string);
        if (final !== null) break;
      }
      if (final === null) continue;
      res.body.destroy();
      return final;
    }
  };

  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < o.questions.length) {
      const i = next++;
      const run = await submit(o.questions[i]!, `floor-${process.pid}-${i}`);
      out.runs++;
      if ((await follow(run.id)) === 'completed') out.completed++;
    }
  };
  await Promise.all(Array.from({ length: Math.min(o.concurrency, o.questions.length) }, worker));
  await dispatcher.close();
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [baseUrl, apiKey, file, concurrency] = process.argv.slice(2);
  // Rows are `id,question` with no commas in the question (writeQuestions).
  const questions = readFileSync(file!, 'utf8').trim().split('\n').slice(1).map((l) => l.slice(l.indexOf(',') + 1));
  process.stdout.write(`${JSON.stringify({ type: 'start', at: new Date().toISOString() })}\n`);
  const r = await runFloorClient({ baseUrl: baseUrl!, apiKey: apiKey!, questions, concurrency: Number(concurrency) });
  process.stdout.write(`${JSON.stringify({ type: 'end', at: new Date().toISOString(), ...r })}\n`);
}
