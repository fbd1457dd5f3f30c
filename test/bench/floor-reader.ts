// The floor of a resume (issue 23): a new process that reads each run once and nothing else,
// as the reference `resq resume` is measured against. For each run id: `GET /runs/{id}`,
// JSON parsed, its status checked (sent again if the server hung up first, as the floor
// client does). undici underneath (as many connections as resq's own
// requests use), no state, no validation, no claims, no progress.
//   npx tsx test/bench/floor-reader.ts BASE_URL KEY RUN_IDS_FILE CONNECTIONS
// prints a JSON `start` line (modules loaded), then a JSON `end` line: { type, at, runs, finished }.
import { readFileSync } from 'node:fs';
import { Agent } from 'undici';
import { again, timedOut } from './floor-client.js';

const FINISHED = new Set(['completed', 'failed', 'error', 'cancelled']);
const [baseUrl, apiKey, file, connections] = process.argv.slice(2);
const ids = readFileSync(file!, 'utf8').trim().split('\n');
process.stdout.write(`${JSON.stringify({ type: 'start', at: new Date().toISOString() })}\n`);
const url = new URL(baseUrl!);
const base = url.pathname.replace(/\/$/, '');
const headers = { authorization: `Bearer ${apiKey!}` };
const dispatcher = new Agent({ connections: Number(connections), keepAliveTimeout: 60_000 });
let finished = 0;
await Promise.all(
  ids.map(async (id) => {
    const res = await again(async () => timedOut(await dispatcher.request({ origin: url.origin, path: `${base}/runs/${id}`, method: 'GET', headers })));
    if (res.statusCode !== 200) throw new Error(`GET /runs/${id}: HTTP ${res.statusCode}`);
    if (FINISHED.has(((await res.body.json()) as { status: string }).status)) finished++;
  }),
);
process.stdout.write(`${JSON.stringify({ type: 'end', at: new Date().toISOString(), runs: ids.length, finished })}\n`);
await dispatcher.close();
