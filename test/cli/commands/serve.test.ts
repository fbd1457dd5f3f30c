import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type Sim } from '../../../src/sim/index.js';
import { openStore } from '../../../src/store/index.js';
import { collect, ROOT, spawnCli, tempDir } from '../../support/cli.js';
import { runInProcess } from '../../support/in-process-cli.js';
import { sharedPgServer, type SharedPg } from '../../support/pg-shared.js';
import { runCsvBatch } from '../../support/two-batches.js';

/** Starts `resq serve` as a child process; `first` resolves with its first stdout line, `lines(n)` with its first n. */
function serve(args: string[], env: Record<string, string> = {}) {
  const child = spawnCli(['serve', ...args], env);
  let out = '';
  const waiting: { n: number; resolve: (l: string[]) => void }[] = [];
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    out += d;
    const lines = out.split('\n');
    for (const w of [...waiting]) if (lines.length > w.n) w.resolve(lines.slice(0, w.n));
  });
  const exited = new Promise<never>((_, reject) => child.on('exit', (code) => reject(new Error(`exited ${code} before serving: ${out}`))));
  exited.catch(() => undefined);
  const lines = (n: number) => Promise.race([new Promise<string[]>((resolve) => waiting.push({ n, resolve })), exited]);
  return { child, first: lines(1).then((l) => l[0]!), lines };
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

  it('prints `serving http://HOST:PORT/?code=CODE` first (a one-time link), then the token for scripts; stops on SIGTERM', async () => {
    const { child, lines } = serve(['--db', db, '--port', '0']);
    const [line, second] = await lines(2);
    const m = /^serving (http:\/\/127\.0\.0\.1:(\d+))\/\?code=([A-Za-z0-9_-]{22})$/.exec(line!);
    expect(m, line).not.toBeNull();
    const t = /^token: ([A-Za-z0-9_-]{43}) \(scripts: Authorization: Bearer TOKEN; the link above works once\)$/.exec(second!);
    expect(t, second).not.toBeNull();
    const [, origin, , code] = m!;
    const token = t![1]!;
    expect(line).not.toContain(token);
    expect((await fetch(`${origin}/api/batches`)).status).toBe(401);
    const r = await fetch(`${origin}/api/batches`, { headers: { Authorization: `Bearer ${token}` } });
    expect(((await r.json()) as { batches: { name: string }[] }).batches.map((b) => b.name)).toEqual(['served']);
    expect((await fetch(`${origin}/?code=${code}`, { redirect: 'manual' })).status).toBe(303);
    expect((await fetch(`${origin}/?code=${code}`, { redirect: 'manual' })).status).toBe(401);
    const done = collect(child);
    child.kill('SIGTERM');
    const res = await done;
    expect(res.code).toBe(0);
    expect(res.stderr).not.toContain(token);
    expect(res.stderr).not.toContain(code);
  });

  it('RESQ_SERVE_TOKEN fixes the token (a team behind a proxy keeps one address)', async () => {
    const token = 'team-3f9a1c77e0b24d5e8a6b1f02c4d9e7a3';
    const { child, lines } = serve(['--db', db, '--port', '0', '--allow-host', 'resq.example.org'], { RESQ_SERVE_TOKEN: token });
    const [first, second] = await lines(2);
    expect(first).toMatch(/^serving http:\/\/127\.0\.0\.1:\d+\/\?code=\S+$/);
    expect(second).toBe(`token: ${token} (scripts: Authorization: Bearer TOKEN; the link above works once)`);
    const done = collect(child);
    child.kill('SIGINT');
    expect((await done).code).toBe(0);
  });

  it('a RESQ_SERVE_TOKEN weaker than 128 bits is refused with one line saying how to make one', async () => {
    for (const weak of ['aaaaaaaaaaaaaaaa', 'a'.repeat(200), 'abcabcabcabcabcabcabcabcabcabcabcabcabcabcabc', 'abcdefghijklmnopqrstuvwxyz0123456789', 'team-token-0123456789abcdef', 'correct-horse-battery', 'has space in it']) {
      const r = await runInProcess(['serve', '--db', db, '--port', '0'], { RESQ_SERVE_TOKEN: weak });
      expect(r.code, weak).toBe(2);
      expect(r.stderr, weak).toMatch(/^resq: RESQ_SERVE_TOKEN: .*make one with: openssl rand -hex 32\n$/);
      expect(r.stderr).not.toContain(weak);
    }
  });

  it('--host 0.0.0.0 says it is on the network over plain HTTP, which Host names it answers, and answers through the machine\'s address', async () => {
    const { networkInterfaces, hostname } = await import('node:os');
    const lan = Object.values(networkInterfaces()).flat().find((a) => a && !a.internal && a.family === 'IPv4')?.address;
    const { child, lines } = serve(['--db', db, '--host', '0.0.0.0', '--port', '0', '--allow-host', 'resq.example.org']);
    const done = collect(child);
    try {
      const [first, second, third, fourth] = await lines(4);
      const port = /:(\d+)\//.exec(first!)![1]!;
      const token = /^token: (\S+) /.exec(second!)![1]!;
      expect(third).toMatch(/^on the network over plain HTTP \(no TLS\).*README: "Behind a reverse proxy"/);
      expect(fourth).toMatch(/^answers the Host names /);
      expect(fourth).toContain(`${hostname().toLowerCase()}:${port}`);
      expect(fourth).toContain('resq.example.org');
      if (lan) {
        expect(fourth).toContain(`${lan}:${port}`);
        const r = await fetch(`http://${lan}:${port}/api/batches`, { headers: { Authorization: `Bearer ${token}` } });
        expect(r.status).toBe(200);
      }
      const byName = await fetch(`http://127.0.0.1:${port}/api/batches`, { headers: { Authorization: `Bearer ${token}` } });
      expect(byName.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      expect((await done).code).toBe(0);
    }
  });

  it("the README's reverse-proxy example works as written: its token, its --allow-host, the headers its nginx sets, a login proxy's Basic", async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('**Behind a reverse proxy, for a team.**'));
    const cmd = /```bash\nRESQ_SERVE_TOKEN=\$\((openssl rand -hex \d+)\) resq serve --db \S+ \\\n\s+(--host 127\.0\.0\.1 --port 8642 --allow-host (\S+) --behind-proxy)\n```/.exec(section);
    expect(cmd, 'the README\'s serve command').not.toBeNull();
    const nginx = /```nginx\n([\s\S]*?)```/.exec(section)![1]!;
    const sets = Object.fromEntries([...nginx.matchAll(/proxy_set_header (\S+) (\S+);/g)].map((m) => [m[1]!, m[2]!]));
    const name = /server_name (\S+);/.exec(nginx)![1]!;
    expect(cmd![3]).toBe(name);
    const headers = { Host: sets.Host === '$host' ? name : sets.Host!, 'X-Forwarded-Proto': sets['X-Forwarded-Proto']! };
    const token = execFileSync('sh', ['-c', cmd![1]!], { encoding: 'utf8' }).trim();
    const args = cmd![2]!.split(' ').map((a) => (a === '8642' ? '0' : a));
    const { child, lines } = serve(['--db', db, ...args], { RESQ_SERVE_TOKEN: token });
    const done = collect(child);
    try {
      const [first] = await lines(2);
      const origin = /^serving (http:\/\/[^/]+)\//.exec(first!)![1]!;
      const { rawRequest } = await import('../../web/support/web-fixture.js');
      const visit = await rawRequest(`${origin}/b/served?token=${token}`, { headers });
      expect(visit.status).toBe(303);
      expect(visit.headers.location).toBe('/b/served');
      const set = String(visit.headers['set-cookie']);
      expect(set.split('; ')).toEqual(expect.arrayContaining(['HttpOnly', 'Secure', 'SameSite=Strict']));
      expect(set).not.toContain(token);
      const cookie = set.split(';')[0]!;
      const basic = `Basic ${Buffer.from('ada:proxy-login').toString('base64')}`;
      expect((await rawRequest(`${origin}/api/batches`, { headers: { ...headers, Cookie: cookie, Authorization: basic } })).status).toBe(200);
      const write = (o: string) => rawRequest(`${origin}/api/batches/served/items/b/answer`, { method: 'POST', headers: { ...headers, Cookie: cookie, Authorization: basic, Origin: o, 'Content-Type': 'application/json' }, body: '{}' });
      expect((await write(`https://${name}`)).status).toBe(400);
      expect((await write(`http://${name}`)).status).toBe(403);
      expect((await rawRequest(`${origin}/api/batches`, { headers: { ...headers, Authorization: `Bearer ${token}` } })).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      expect((await done).code).toBe(0);
    }
  });

  it('bad input is one line and exit 2: a port out of range, a weak token, a missing database', async () => {
    expect(await runInProcess(['serve', '--db', db, '--port', '70000'])).toMatchObject({ code: 2, stderr: 'resq: --port: 70000 is not a port (0–65535; 0 picks a free one)\n' });
    expect(await runInProcess(['serve', '--db', db, '--port', '0'], { RESQ_SERVE_TOKEN: 'short' })).toMatchObject({ code: 2, stderr: expect.stringMatching(/^resq: RESQ_SERVE_TOKEN: [^\n]+\n$/) });
    const r = await runInProcess(['serve', '--db', join(tempDir(), 'none.db'), '--port', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n').filter(Boolean)).toHaveLength(1);
  });
});

describe('resq serve --db postgres://…', () => {
  let sim: Sim;
  let pg: SharedPg;
  let url: string;
  beforeAll(async () => {
    [sim, pg] = await Promise.all([startSim({ defaultDurationMs: 20 }), sharedPgServer()]);
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
    const { child, lines } = serve(['--db', url, '--port', '0']);
    const done = collect(child);
    const [line, second] = await lines(2);
    const m = /^serving (http:\/\/127\.0\.0\.1:\d+)\/\?code=\S+$/.exec(line!);
    expect(m, line).not.toBeNull();
    const origin = m![1]!;
    const token = /^token: (\S+) /.exec(second!)![1]!;
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
