import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pgClient from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportRows, type ExportRow } from '../../src/runner/index.js';
import { startSim, type Sim } from '../../src/sim/index.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { fixtureItems, writeFixture } from '../support/batch-fixture.js';
import { collect, runCliChild, spawnCli, tempDir, type CliResult } from '../support/cli.js';
import { expectBatchWhole } from '../support/expect-batch.js';
import { startPgServer, type PgServer } from '../support/pg-server.js';
import { startPgBouncer } from '../support/pgbouncer.js';
import { waitUntil } from '../support/wait-until.js';

// Several machines on one batch: real CLI children on one PostgreSQL database (a real server
// started for the test), each worker with its own --out folder, the simulator over HTTP.
describe('several workers on one PostgreSQL batch', () => {
  let pg: PgServer;
  let sim: Sim;
  beforeAll(async () => {
    [pg, sim] = await Promise.all([startPgServer(), startSim({ defaultDurationMs: 100, seed: 5 })]);
  });
  afterAll(async () => {
    await sim?.close();
    await pg?.stop();
  });

  /**
   * Three workers on one batch, one killed with SIGKILL and restarted, on the database `url`
   * gives (a database it creates): every item answered once, the cap held, every file on some
   * machine, no stack trace in any worker's output. Returns what the workers wrote on stderr.
   */
  async function threeWorkersOneKilled(dbName: string, url: (db: string) => string): Promise<string[]> {
    // A simulator of its own: its ledger and peaks are this run's alone.
    const sim = await startSim({ defaultDurationMs: 100, seed: 5 });
    try {
      return await workersOn(sim, dbName, url);
    } finally {
      await sim.close();
    }
  }

  /** The URL of database `db` on the server itself (not through a pooler). */
  const pgDb = (db: string): string => pg.url.replace(/\/postgres$/, `/${db}`);

  async function workersOn(sim: Sim, dbName: string, url: (db: string) => string): Promise<string[]> {
    await pg.createDatabase(dbName);
    const db = url(dbName);
    const dir = tempDir();
    // Runs of a second: the batch outlasts the workers' start-up skew on a loaded machine (at
    // 200 ms one worker could end the batch before the others began), so all three get work.
    const items = fixtureItems('1s', 3);
    const { questions, policy } = writeFixture(dir, items);
    const cap = 5;
    const env = { RESQ_API_KEY: 'sim-key-bob', RESQ_LEASE_MS: '1500' };
    const load = await runCliChild(['run', questions, '--db', db, '--batch', 'shared', '--policy', policy, '--base-url', sim.url, '--concurrency', String(cap), '--dry-run'], env);
    expect(load.code, load.stderr).toBe(0);
    const join_ = (out: string) => ['resume', 'shared', '--db', db, '--out', join(dir, out), '--json'];
    // Which workers' folders hold a recorded download, read straight from the database.
    const direct = new pgClient.Client({ connectionString: pgDb(dbName) });
    await direct.connect();
    const folderOf = (path: string): string => path.slice(dir.length + 1).split('/')[0]!;
    const landedIn = async (): Promise<Set<string>> => new Set((await direct.query<{ path: string }>(`SELECT path FROM files WHERE status = 'downloaded'`)).rows.map((r) => folderOf(r.path)));
    let others: Promise<CliResult>[];
    let killed: CliResult;
    try {
      const victim = spawnCli(join_('out-b'), env);
      const victimDone = collect(victim);
      let victimEnded = false;
      void victimDone.then(() => (victimEnded = true));
      const ended = [false, false];
      others = ['out-a', 'out-c'].map((out, i) => collect(spawnCli(join_(out), env)).finally(() => (ended[i] = true)));
      let seen = 0;
      victim.stdout?.on('data', (d: Buffer) => {
        seen += d.toString().split('\n').filter((l) => l.includes('"type":"item"')).length;
      });
      // Killed mid-batch once it has started six items and recorded a file of its own (so its
      // folder holds one whatever the machine's load did to the others' start).
      await waitUntil(async () => victimEnded || (seen >= 6 && (await landedIn()).has('out-b')), 'the first worker to record a file', 120_000, 25);
      victim.kill('SIGKILL');
      killed = await victimDone;
      expect(killed.signal, killed.stderr).toBe('SIGKILL');
      // Restarted once one of the others has recorded a file (or both have ended), so the
      // batch's files are not all the victim's restarted self's.
      await waitUntil(async () => ended.every(Boolean) || [...(await landedIn())].some((o) => o !== 'out-b'), 'another worker to record a file', 120_000, 25);
    } finally {
      await direct.end();
    }
    others.push(collect(spawnCli(join_('out-b'), env)));
    const done = await Promise.all(others);
    for (const r of [killed, ...done]) {
      expect(r.stderr).not.toContain('internal error');
      expect(r.stderr).not.toMatch(/deadlock|could not serialize|prepared statement/);
      // No stack trace: a stop is one line.
      expect(r.stderr).not.toMatch(/^\s+at /m);
    }
    const last = await runCliChild(join_('out-a'), env);
    expect(last.code, last.stderr).toBe(1); // the @fail items fail, nothing else
    expect(last.stderr).not.toMatch(/^\s+at /m);

    const c = sim.counters();
    for (const it of items) expect(c.admissionsByInput[it.question] ?? 0, it.id).toBe(1);
    expect(c.respondRuns).toBe(items.reduce((n, it) => n + it.pauses, 0));
    expect(c.peakConcurrentRuns.bob).toBeGreaterThan(1);
    expect(c.peakConcurrentRuns.bob).toBeLessThanOrEqual(cap);

    const store = await PostgresStore.open(db);
    try {
      const batch = (await store.findBatch('shared'))!;
      const rows: ExportRow[] = [];
      for await (const r of exportRows(store, batch)) rows.push(r);
      // Against the simulator's record: run ids its chains, every file (wherever a worker put
      // it) with the bytes the simulator serves, as many as each question asks for.
      expectBatchWhole(rows, items, sim.ledger());
      // The files landed in the workers' own folders.
      const outs = new Set(rows.flatMap((r) => r.files.map((f) => folderOf(f.path!))));
      expect([...outs].every((o) => ['out-a', 'out-b', 'out-c'].includes(o)), [...outs].join()).toBe(true);
      const where = rows.flatMap((r) => r.files.map((f) => `${r.id}:${folderOf(f.path!)}`)).join(' ');
      expect(outs.size, `${where}\n${[killed, ...done].map((r) => `exit ${r.code ?? r.signal}: ${r.stderr.slice(-600)}`).join('\n')}`).toBeGreaterThan(1);
    } finally {
      await store.close();
    }
    return [killed, ...done, last].map((r) => r.stderr);
  }

  it('three workers, each with its own --out; one killed with SIGKILL and restarted: every item answered once (its run ids the simulator\'s chain), the cap held, every file on some machine with the bytes the simulator serves', async () => {
    await threeWorkersOneKilled('workers', pgDb);
  }, 240_000);

  // Issue 37, point 8: the same through a real PgBouncer 1.18 in transaction pooling (two
  // server connections for every worker), answers found by polling (no direct= given).
  it('the same three workers through PgBouncer in transaction pooling (?pooler=transaction), one killed with SIGKILL: every item answered once, no stack trace, polling said once by each worker', async () => {
    const bouncer = await startPgBouncer(pg, { poolSize: 2 });
    try {
      const stderrs = await threeWorkersOneKilled('pooled', (db) => `${bouncer.urlOf(db)}?pooler=transaction`);
      for (const err of stderrs) expect(err.split('\n').filter((l) => l.includes('answers from other machines are found by polling'))).toHaveLength(1);
    } finally {
      await bouncer.stop();
    }
  }, 240_000);

  // Today's main behind PgBouncer (set up, as in the audit, to let the timeouts' startup
  // parameters through): `prepared statement "resq_N" already exists` and a stack trace.
  it('a worker pointed at PgBouncer without ?pooler=transaction stops in one line naming the parameter: no stack trace, exit 1', async () => {
    const bouncer = await startPgBouncer(pg, { poolSize: 1, ignoreStartupParameters: ['idle_in_transaction_session_timeout', 'options'] });
    try {
      await pg.createDatabase('unmarked');
      const dir = tempDir();
      const { questions, policy } = writeFixture(dir, fixtureItems('100ms', 2));
      const env = { RESQ_API_KEY: 'sim-key-bob' };
      const run = (out: string) => collect(spawnCli(['run', questions, '--db', bouncer.urlOf('unmarked'), '--batch', 'unmarked', '--policy', policy, '--base-url', sim.url, '--out', join(dir, out), '--concurrency', '4'], env));
      const results = await Promise.all([run('a'), run('b')]);
      const stopped = results.filter((r) => r.stderr.includes('resq: stopped'));
      expect(stopped.length, results.map((r) => r.stderr).join('\n---\n')).toBeGreaterThan(0);
      for (const r of stopped) {
        expect(r.code).toBe(1);
        expect(r.stderr).not.toMatch(/internal error|^\s+at /m);
        const line = r.stderr.split('\n').filter((l) => l.startsWith('resq: stopped'));
        expect(line).toHaveLength(1);
        expect(line[0]).toMatch(/^resq: stopped: database error \((42P05|26000)\): prepared statement "resq_\d+" (already exists|does not exist): is the database behind a pooler in transaction mode \(PgBouncer\)\? Add \?pooler=transaction to the URL/);
      }
    } finally {
      await bouncer.stop();
    }
  }, 120_000);

  it('a password in the URL appears in no output', async () => {
    const url = (await pg.createDatabase('secret')).replace('postgres@', 'postgres:hunter2-secret@');
    const dir = tempDir();
    const { questions } = writeFixture(dir, fixtureItems('10ms', 1).slice(0, 1));
    const r = await runCliChild(['run', questions, '--db', url, '--base-url', sim.url, '--no-download', '--json'], { RESQ_API_KEY: 'sim-key-alice' });
    expect(r.code, r.stderr).toBe(0);
    const status = await runCliChild(['status', '--db', url], {});
    expect(status.stdout).toContain('postgres://postgres:***@');
    for (const out of [r.stdout, r.stderr, status.stdout, status.stderr]) expect(out).not.toContain('hunter2-secret');
  }, 120_000);

  it('a worker started while the server is down waits for it, saying so with the bound, then runs the batch: every run admitted once', async () => {
    const url = await pg.createDatabase('starting');
    const dir = tempDir();
    const questions = join(dir, 'starting.csv');
    const texts = ['Started early one', 'Started early two', 'Started early three', 'Started early four'];
    writeFileSync(questions, `id,question\n${texts.map((q, i) => `q${i},${q}`).join('\n')}\n`);
    await pg.halt();
    let resumed: Promise<void> | null = null;
    try {
      const worker = spawnCli(['run', questions, '--db', url, '--base-url', sim.url, '--batch', 'starting', '--no-download', '--concurrency', '2'], { RESQ_API_KEY: 'sim-key-alice' });
      const done = collect(worker);
      // The server starts once the worker has said it waits (a condition, not a timing).
      await new Promise<void>((resolve, reject) => {
        let err = '';
        worker.stderr!.on('data', (d: Buffer) => {
          err += d.toString();
          if (err.includes('is not accepting connections')) resolve();
        });
        worker.on('close', (code) => reject(new Error(`exited ${code} before waiting:\n${err}`)));
      });
      resumed = pg.resume();
      await resumed;
      const r = await done;
      expect(r.code, r.stderr).toBe(0);
      const said = r.stderr.split('\n').filter((l) => l.includes('is not accepting connections'));
      expect(said).toHaveLength(1);
      expect(said[0]).toMatch(/^the database postgres:\/\/postgres@127\.0\.0\.1:\d+\/starting is not accepting connections \((ECONNREFUSED|57P03)[^)]*\): waiting up to 60 s$/);
      expect(r.stdout).toContain('4 completed');
    } finally {
      await (resumed ?? pg.resume());
    }
    const c = sim.counters();
    for (const q of texts) expect(c.admissionsByInput[q] ?? 0, q).toBe(1);
  }, 120_000);
});
