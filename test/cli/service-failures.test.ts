// One failure taxonomy, seen from the terminal: an unreachable service is said plainly and
// quickly, a wrong scheme plainly, a refused key before anything is in flight.
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type Sim } from '../../src/sim/index.js';
import { tempDir } from '../support/cli.js';
import { runInProcess } from '../support/in-process-cli.js';

/** A loopback port nothing listens on (it was free a moment ago). */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('service failures from the terminal', () => {
  let sim: Sim;
  let q: string;
  let dir: string;
  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 10 });
    dir = tempDir();
    q = join(dir, 'q.csv');
    writeFileSync(q, 'id,question\na,one\nb,two\n');
  });
  afterAll(async () => sim.close());

  it('an unreachable service: cannot reach URL (connection refused), exit 1, within the client retries', { timeout: 30_000 }, async () => {
    const url = `http://127.0.0.1:${await closedPort()}/api/v1`;
    const r = await runInProcess(['run', q, '--db', join(dir, 'a.db'), '--base-url', url], { RESQ_API_KEY: 'k' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`cannot reach ${url} (connection refused)`);
    expect(r.stderr).not.toMatch(/attempt|submission outcome unknown|internal error/);
  });

  it('https to an http port: a plain message, not an OpenSSL string', { timeout: 30_000 }, async () => {
    const url = sim.url.replace('http://', 'https://');
    const r = await runInProcess(['threads', 'list', '--base-url', url], { RESQ_API_KEY: sim.keys[0] });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cannot reach https:\/\/.* \(the server does not speak TLS there: is the address http:\/\/ rather than https:\/\/\?\)/);
    expect(r.stderr).not.toMatch(/SSL|ssl3|wrong version/i);
  });

  it('a refused key stops before anything is shown as in flight or sent', async () => {
    const before = sim.counters().requestsByRoute['POST /runs'] ?? 0;
    const r = await runInProcess(['run', q, '--db', join(dir, 'k.db'), '--base-url', sim.url, '--json'], { RESQ_API_KEY: 'wrong-key' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/the service refused the API key \(HTTP 401 GET \/threads\): check RESQ_API_KEY/);
    expect(r.stdout).not.toMatch(/"type":"(start|progress)"/);
    expect(sim.counters().requestsByRoute['POST /runs'] ?? 0).toBe(before);
  });

  it('runs that end in a status resq does not know are kept, listed and counted apart, with a warning', async () => {
    const odd = join(dir, 'odd.csv');
    writeFileSync(odd, 'id,question\nok,fine\nw1,odd @status=weird\nw2,odd too @status=weird\n');
    const db = join(dir, 'odd.db');
    const r = await runInProcess(['run', odd, '--db', db, '--base-url', sim.url], { RESQ_API_KEY: sim.keys[0] });
    expect(r.stdout).toContain('3 items — 1 completed, 2 finished with status weird');
    expect(r.stdout).toMatch(/warning: 2 run\(s\) finished with a status resq does not know/);
    expect(r.stdout).toContain('  w1: finished with status weird');
    const exp = await runInProcess(['export', '--db', db]);
    const rows = exp.stdout.trim().split('\n').map((l) => JSON.parse(l) as { id: string; run_status: string });
    expect(rows.find((x) => x.id === 'w2')?.run_status).toBe('weird');
  });
});
