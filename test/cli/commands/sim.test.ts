// `resq sim`: its help lists what it takes, and the start-up hint it prints works as pasted
// in a folder that has nothing of the checkout (the real CLI as child processes).
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simTryLines } from '../../../src/cli/commands/sim.js';
import { collect, ROOT, runCliChild, spawnCli, tempDir } from '../../support/cli.js';
import { sharedPgServer, type SharedPg } from '../../support/pg-shared.js';

/** A `resq` on PATH that runs this checkout's bin on the project's Node, as an installed command would. */
function resqOnPath(): string {
  const bin = join(tempDir('resq-bin-'), 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'resq'), `#!/bin/sh\nexec '${process.execPath}' '${join(ROOT, 'bin', 'resq.js')}' "$@"\n`);
  chmodSync(join(bin, 'resq'), 0o755);
  return bin;
}

describe('resq sim', () => {
  it('--help lists the port (default 8787), host and duration, each described', async () => {
    const r = await runCliChild(['sim', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/--port .*default: 8787/s);
    expect(r.stdout).toMatch(/--host\s+address to listen on/);
    expect(r.stdout).toMatch(/--duration\s+default working time/);
    // Nothing of run's (the options are sim's own and the global ones).
    const listed = [...r.stdout.matchAll(/^ {2,6}(?:-\w, )?(--[\w-]+)/gm)].map((m) => m[1]);
    expect(listed.sort()).toEqual(['--db', '--duration', '--help', '--host', '--json', '--port']);
  });

  it('the try lines name no file of the checkout', () => {
    const lines = simTryLines('http://127.0.0.1:1/api/v1', 'k');
    expect(lines).not.toContain('pipelines/');
    expect(lines).toContain('export RESQ_BASE_URL=http://127.0.0.1:1/api/v1 RESQ_API_KEY=k');
  });

  it('prints a start-up hint that, pasted into a shell in an empty folder, runs a batch on it', async () => {
    const dir = tempDir('resq-sim-hint-');
    const sim = spawnCli(['sim', '--port', '0'], {}, dir);
    const done = collect(sim);
    let out = '';
    sim.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
    await new Promise<void>((res, rej) => {
      const check = () => (/resq run .*\n/.test(out) ? res() : undefined);
      sim.stdout!.on('data', check);
      sim.on('exit', () => rej(new Error(`resq sim exited early: ${out}`)));
    });
    try {
      // The indented lines after "try": exactly what a person would paste.
      const script = out
        .slice(out.indexOf('try'))
        .split('\n')
        .slice(1)
        .filter((l) => l.startsWith('  '))
        .map((l) => l.trim())
        .join('\n');
      expect(script).toContain('resq run');
      const env: NodeJS.ProcessEnv = { ...process.env, PATH: [resqOnPath(), ...(process.env.PATH ?? '').split(delimiter)].join(delimiter), FORCE_COLOR: '0' };
      delete env.RESQ_BASE_URL;
      delete env.RESQ_API_KEY;
      delete env.RESQ_DB;
      const shell = spawn('sh', ['-ec', script], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
      const r = await collect(shell);
      expect(r.stderr).not.toMatch(/^resq:/m);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/1 item — 1 completed/);
      expect(existsSync(join(dir, 'resq-try.db'))).toBe(true);
    } finally {
      sim.kill('SIGINT');
      await done;
    }
  });
});

/** The last of `resq sim`'s start-up lines (a database's simulator, or a plain one). */
const LAST_LINE = /(every --sim process on this database shares it|controls: ).*\n/;

/** Starts `resq sim` in `dir` and waits for its start-up lines (up to the one saying how to use it). */
async function simStarted(args: string[], env: Record<string, string | undefined>, dir: string) {
  const sim = spawnCli(['sim', ...args], env, dir);
  const done = collect(sim);
  let out = '';
  sim.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  await new Promise<void>((res, rej) => {
    sim.stdout!.on('data', () => (LAST_LINE.test(out) ? res() : undefined));
    sim.on('exit', () => rej(new Error(`resq sim exited early: ${out}`)));
  });
  return { sim, done, out: () => out };
}

describe('resq sim and a PostgreSQL database', () => {
  let pg: SharedPg;
  beforeAll(async () => {
    pg = await sharedPgServer();
  }, 120_000);
  afterAll(async () => pg?.stop());

  it('with a postgres:// RESQ_DB it serves that database\'s simulator, says so and where its state is, never the password; a dry run then resume runs on it', { timeout: 60_000 }, async () => {
    const dir = tempDir('resq-sim-pg-');
    // A password in the URL (the test server trusts every login, so it is only there to be hidden).
    const db = (await pg.createDatabase('simdb')).replace('postgres@', 'postgres:s3cret-pw@');
    const env = { RESQ_DB: db };
    const s = await simStarted([], env, dir);
    try {
      const lines = s.out().split('\n');
      expect(lines[0]).toMatch(/^simulator of postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/simdb \(RESQ_DB\) serving http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
      expect(lines[1]).toMatch(new RegExp(`^its state is kept in ${join(dir, 'resq-sim-')}[0-9a-f]{12}\\.json `));
      expect(s.out()).not.toContain('s3cret-pw');
      writeFileSync(join(dir, 'q.csv'), 'id,question\np1,one\np2,two\np3,three\n');
      const dry = await runCliChild(['run', 'q.csv', '--sim', '--dry-run'], env, dir);
      expect(dry.code, dry.stderr).toBe(0);
      const resumed = await runCliChild(['resume', 'q'], env, dir);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stdout).toContain('3 items — 3 completed');
      // The runs went to the served simulator, not one of the resume's own.
      const url = /serving (http:\/\/\S+)\/api\/v1/.exec(s.out())![1];
      const counters = (await (await fetch(`${url}/_sim/counters`)).json()) as { runsAdmitted: number };
      expect(counters.runsAdmitted).toBe(3);
    } finally {
      s.sim.kill('SIGINT');
      expect((await s.done).code).toBe(0);
    }
    const state = /its state is kept in (\S+\.json)/.exec(s.out())![1]!;
    expect(existsSync(state)).toBe(true);
  });

  it('--db with a postgres:// URL says where the state is kept, password masked', { timeout: 30_000 }, async () => {
    const dir = tempDir('resq-sim-pg-');
    const db = (await pg.createDatabase('simdb2')).replace('postgres@', 'postgres:s3cret-pw@');
    const s = await simStarted(['--db', db], { RESQ_DB: undefined }, dir);
    s.sim.kill('SIGINT');
    expect((await s.done).code).toBe(0);
    expect(s.out()).toMatch(/^simulator of postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/simdb2 serving http/);
    expect(s.out()).toContain(`its state is kept in ${join(dir, 'resq-sim-')}`);
    expect(s.out()).not.toContain('s3cret-pw');
  });

  it('a plain simulator says its state is in memory only', { timeout: 30_000 }, async () => {
    const s = await simStarted(['--port', '0'], { RESQ_DB: undefined }, tempDir());
    s.sim.kill('SIGINT');
    await s.done;
    expect(s.out()).toMatch(/^its state is kept in memory only /m);
  });
});
