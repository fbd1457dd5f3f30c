// `resq sim`: its help lists what it takes, and the start-up hint it prints works as pasted
// in a folder that has nothing of the checkout (the real CLI as child processes).
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { simTryLines } from '../../../src/cli/commands/sim.js';
import { collect, ROOT, runCliChild, spawnCli, tempDir } from '../../support/cli.js';

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
