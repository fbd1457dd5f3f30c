// A minimal client written the way the interface text suggests, as the reference resq is
// measured against: submit each question with an Idempotency-Key, poll GET /runs/{id}
// every 3 s until it is no longer running, answer pauses (approve plans and images, pick
// the first option), then fetch every file. At most `concurrency` questions at a time.
//   npx tsx test/bench/plain-client.ts BASE_URL KEY QUESTIONS.csv CONCURRENCY [POLL_MS]
// prints one JSON line: { wallMs, runs, completed, files, fileBytes }.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Options of {@link runPlainClient}. */
export interface PlainClientOptions {
  baseUrl: string;
  apiKey: string;
  questions: string[];
  concurrency: number;
  /** @default 3000 */
  pollMs?: number;
}

/** What the plain client did. */
export interface PlainClientResult {
  wallMs: number;
  runs: number;
  completed: number;
  files: number;
  fileBytes: number;
}

interface Run {
  id: string;
  status: string;
  required_action?: { tool: string; input: { options?: { id: string }[] } };
  output?: { tool_results?: { files?: { url: string }[] }[] };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs every question to its end the plain way; resolves when all are done. */
export async function runPlainClient(o: PlainClientOptions): Promise<PlainClientResult> {
  const pollMs = o.pollMs ?? 3000;
  const headers = { authorization: `Bearer ${o.apiKey}`, 'content-type': 'application/json' };
  const post = async (path: string, body: unknown, key: string): Promise<Run> => {
    const res = await fetch(`${o.baseUrl}${path}`, { method: 'POST', headers: { ...headers, 'idempotency-key': key }, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`POST ${path}: HTTP ${res.status}`);
    return (await res.json()) as Run;
  };
  const get = async (path: string): Promise<Run> => {
    const res = await fetch(`${o.baseUrl}${path}`, { headers });
    if (!res.ok) throw new Error(`GET ${path}: HTTP ${res.status}`);
    return (await res.json()) as Run;
  };
  const out: PlainClientResult = { wallMs: 0, runs: 0, completed: 0, files: 0, fileBytes: 0 };
  const t0 = performance.now();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < o.questions.length) {
      const i = next++;
      let run = await post('/runs', { input: o.questions[i] }, `plain-${i}`);
      out.runs++;
      for (let step = 1; ; step++) {
        while (run.status === 'running' || run.status === 'cancelling') {
          await sleep(pollMs);
          run = await get(`/runs/${run.id}`);
        }
        if (run.status !== 'requires_action' || !run.required_action) break;
        run = await post(`/runs/${run.id}/respond`, { answer: answerFor(run.required_action) }, `plain-${i}-${step}`);
        out.runs++;
      }
      if (run.status === 'completed') out.completed++;
      for (const result of run.output?.tool_results ?? []) {
        for (const file of result.files ?? []) {
          const res = await fetch(file.url, { headers });
          out.fileBytes += (await res.arrayBuffer()).byteLength;
          out.files++;
        }
      }
    }
  };
  await Promise.all(Array.from({ length: o.concurrency }, worker));
  out.wallMs = performance.now() - t0;
  return out;
}

function answerFor(action: NonNullable<Run['required_action']>): Record<string, unknown> {
  if (action.tool === 'ask_choice') return { decision: 'chosen', chosen: [action.input.options?.[0]?.id] };
  return { approved: true };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [baseUrl, apiKey, file, concurrency, pollMs] = process.argv.slice(2);
  const questions = readFileSync(file!, 'utf8').trim().split('\n').slice(1).map((l) => l.slice(l.indexOf(',') + 1));
  const r = await runPlainClient({ baseUrl: baseUrl!, apiKey: apiKey!, questions, concurrency: Number(concurrency), pollMs: pollMs ? Number(pollMs) : 3000 });
  process.stdout.write(`${JSON.stringify(r)}\n`);
}
