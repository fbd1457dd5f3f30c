import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type Sim } from '../../../src/sim/index.js';
import { openStore } from '../../../src/store/index.js';
import { collect, spawnCli, tempDir } from '../../support/cli.js';
import { runInProcess } from '../../support/in-process-cli.js';
import { startPgServer, type PgServer } from '../../support/pg-server.js';
import { runCsvBatch } from '../../support/two-batches.js';

/** Starts `resq serve` as a child process; resolves with its first stdout line. */
function serve(args: string[], env: Record<string, string> = {}) {
  const child = spawnCli(['serve', ...args], env);
  const first = new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (out.includes('\n')) resolve(out.split('\n')[0]!);
    });
    child.on('exit', (code) => reject(new Error(`exited ${code} before serving`)));
  });
  return { child, first };
}

describe('resq serve', () => {
  let sim: Sim;
  let db: string;
  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 20 });
    const dir = tempDir();
    db = join(dir, 'resq.db');
    const store = await openStore(db);
    await runCsvBatch(sim, store, dir, 'served', 'id,question\na,plain\nb,plan @confirm=3\n', null);
    await store.close();
  }, 30_000);
  afterAll(async () => sim.close());

  it('prints `serving http://HOST:PORT/?token=TOKEN` first, serves with that token, stops on SIGTERM', async () => {
    const { child, first } = serve(['--db', db, '--port', '0']);
    const line = await first;
    const m = /^serving (http:\/\/127\.0\.0\.1:(\d+))\/\?token=([A-Za-z0-9_-]{43})$/.exec(line);
    expect(m, line).not.toBeNull();
    const [, origin, , token] = m!;
    expect((await fetch(`${origin}/api/batches`)).status).toBe(401);
    const r = await fetch(`${origin}/api/batches`, { headers: { Authorization: `Bearer ${token}` } });
    expect(((await r.json()) as { batches: { name: string }[] }).batches.map((b) => b.name)).toEqual(['served']);
    const done = collect(child);
    child.kill('SIGTERM');
    const res = await done;
    expect(res.code).toBe(0);
    expect(res.stderr).not.toContain(token);
  });

  it('RESQ_SERVE_TOKEN fixes the token (a team behind a proxy keeps one address)', async () => {
    const token = 'team-token-0123456789abcdef';
    const { child, first } = serve(['--db', db, '--port', '0', '--allow-host', 'resq.example.org'], { RESQ_SERVE_TOKEN: token });
    expect(await first).toMatch(new RegExp(`^serving http://127\\.0\\.0\\.1:\\d+/\\?token=${token}$`));
    const done = collect(child);
    child.kill('SIGINT');
    expect((await done).code).toBe(0);
  });

  it('bad input is one line and exit 2: a port out of range, a weak token, a missing database', async () => {
    expect(await runInProcess(['serve', '--db', db, '--port', '70000'])).toMatchObject({ code: 2, stderr: 'resq: --port: 70000 is not a port (0–65535; 0 picks a free one)\n' });
    expect(await runInProcess(['serve', '--db', db, '--port', '0'], { RESQ_SERVE_TOKEN: 'short' })).toMatchObject({ code: 2, stderr: expect.stringMatching(/^resq: RESQ_SERVE_TOKEN: /) });
    const r = await runInProcess(['serve', '--db', join(tempDir(), 'none.db'), '--port', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n').filter(Boolean)).toHaveLength(1);
  });
});

describe('resq serve --db postgres://…', () => {
  let sim: Sim;
  let pg: PgServer;
  let url: string;
  beforeAll(async () => {
    [sim, pg] = await Promise.all([startSim({ defaultDurationMs: 20 }), startPgServer()]);
    url = await pg.createDatabase('served');
    const store = await openStore(url);
    await runCsvBatch(sim, store, tempDir(), 'shared', 'id,question\na,plain\nb,plan @confirm=3\n', null);
    await store.close();
  }, 120_000);
  afterAll(async () => {
    await sim?.close();
    await pg?.stop();
  });

  it('serves the batches of a PostgreSQL database with the token it prints, stops on SIGTERM', { timeout: 60_000 }, async () => {
    const { child, first } = serve(['--db', url, '--port', '0']);
    const done = collect(child);
    const line = await first;
    const m = /^serving (http:\/\/127\.0\.0\.1:\d+)\/\?token=([A-Za-z0-9_-]{43})$/.exec(line);
    expect(m, line).not.toBeNull();
    const [, origin, token] = m!;
    const r = await fetch(`${origin}/api/batches`, { headers: { Authorization: `Bearer ${token}` } });
    expect(r.status).toBe(200);
    const { batches } = (await r.json()) as { batches: { name: string; counts: Record<string, number> }[] };
    expect(batches.map((b) => b.name)).toEqual(['shared']);
    expect(batches[0]!.counts).toMatchObject({ completed: 1, held: 1 });
    child.kill('SIGTERM');
    const res = await done;
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toMatch(/^database: postgres:\/\/postgres@127\.0\.0\.1:\d+\/served; stop with Ctrl-C$/m);
  });
});
