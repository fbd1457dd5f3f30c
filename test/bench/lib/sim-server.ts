// Child entry: serves the simulator with the options given as JSON in argv[2], warms it up
// (a real service is not cold: the first requests here cost JIT compilation), prints one
// JSON line `{url, origin, key}` and runs until SIGTERM. Keeps the simulator's CPU out of
// the process being measured.
import { startSim, type SimOptions } from '../../../src/sim/index.js';

const options = JSON.parse(process.argv[2] ?? '{}') as SimOptions;
const sim = await startSim({ port: 0, ...options });
const key = sim.keys[0]!;
await warmUp(sim.url, key);
sim.resetCounters();
process.stdout.write(`${JSON.stringify({ url: sim.url, origin: sim.origin, key })}\n`);
process.once('SIGTERM', () => void sim.close().then(() => process.exit(0)));

async function warmUp(url: string, key: string): Promise<void> {
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const one = async (i: number): Promise<void> => {
    const res = await fetch(`${url}/runs`, {
      method: 'POST',
      headers: { ...headers, 'idempotency-key': `warm-up-${i}` },
      body: JSON.stringify({ input: `warm-up ${i} @duration=20ms @confirm` }),
    });
    const run = (await res.json()) as { id: string };
    await (await fetch(`${url}/runs/${run.id}/events`, { headers })).text();
    await (await fetch(`${url}/runs/${run.id}`, { headers })).text();
    const next = await fetch(`${url}/runs/${run.id}/respond`, {
      method: 'POST',
      headers: { ...headers, 'idempotency-key': `warm-up-respond-${i}` },
      body: JSON.stringify({ answer: { approved: true } }),
    });
    await next.text();
  };
  for (let round = 0; round < 5; round++) await Promise.all(Array.from({ length: 40 }, (_, i) => one(round * 40 + i)));
}
