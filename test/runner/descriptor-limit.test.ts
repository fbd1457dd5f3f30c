import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseProcLimits, parseUlimit, readDescriptorLimit } from '../../src/runner/descriptor-limit.js';
import { startSim } from '../../src/sim/index.js';
import { ROOT, collect, tempDir } from '../support/cli.js';

/** The real CLI as a child of `sh`, its open-files limits set first (`ulimit` takes effect for what the shell execs). */
function cliUnder(limits: string, args: string[], cwd: string, extra: NodeJS.ProcessEnv = {}): ChildProcess {
  const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0' };
  delete env.RESQ_BASE_URL;
  delete env.RESQ_API_KEY;
  Object.assign(env, extra);
  return spawn('/bin/sh', ['-c', `${limits}; exec "$0" "$@"`, process.execPath, join(ROOT, 'bin/resq.js'), ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
}

function questions(dir: string, n: number, directives = ''): string {
  const file = join(dir, 'QUESTIONS.csv');
  writeFileSync(file, ['id,question', ...Array.from({ length: n }, (_, i) => `q${i + 1},what is ${i + 1}${directives}`)].join('\n') + '\n');
  return file;
}

describe('parseProcLimits / parseUlimit', () => {
  it("reads the soft open-files limit from /proc/PID/limits' text; unlimited or absent is null", () => {
    const text = 'Limit                     Soft Limit           Hard Limit           Units     \nMax open files            256                  4096                 files     \n';
    expect(parseProcLimits(text)).toBe(256);
    expect(parseProcLimits(text.replace('256 ', 'unlimited'))).toBeNull();
    expect(parseProcLimits('Max processes 10 10\n')).toBeNull();
    expect(parseUlimit('1024\n')).toBe(1024);
    expect(parseUlimit('unlimited\n')).toBeNull();
  });

  it("reads this very process's limit", () => {
    expect(readDescriptorLimit()).toBe(parseProcLimits(readFileSync('/proc/self/limits', 'utf8')));
  });
});

describe('resq run under a low open-files limit', () => {
  it('with a hard limit of 256 and --concurrency 400 against the simulator, runs what fits: every item completes, the one notice, no stack trace', async () => {
    const dir = tempDir();
    const file = questions(dir, 300);
    const r = await collect(cliUnder('ulimit -Sn 256; ulimit -Hn 256', ['run', file, '--sim', '--concurrency', '400', '--db', join(dir, 'r.db')], dir));
    expect(r.stderr).not.toMatch(/\n\s+at |EMFILE|SQLITE_CANTOPEN|internal error/);
    expect(r.stdout).not.toMatch(/EMFILE|internal error/);
    expect(r.stdout).toContain('batch QUESTIONS: 300 items — 300 completed\n');
    expect(r.code).toBe(0);
    const notices = r.stderr.split('\n').filter((l) => l.includes('open files'));
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/^notice: --concurrency 400 needs about [\d,]+ open files; this process may open 256: running \d+ at once; to run them all, raise it before resq: ulimit -n \d+$/);
  }, 60_000);

  it('with a soft limit of 256 under a higher hard one, the process holds the hard limit: nothing lowered, nothing said', async () => {
    const dir = tempDir();
    const file = questions(dir, 300);
    const child = cliUnder('ulimit -Sn 256; ulimit -Hn 8192', ['run', file, '--sim', '--concurrency', '400', '--db', join(dir, 'r.db')], dir);
    // Read the child's own limits (sh exec'd it: the same pid) once it is running the batch.
    const seen = new Promise<string>((res) => {
      child.stderr!.on('data', (d: Buffer) => {
        if (!d.toString().includes('batch ')) return;
        try {
          res(readFileSync(`/proc/${child.pid}/limits`, 'utf8'));
        } catch {
          // Gone already: the limits were not read.
        }
      });
    });
    const r = await collect(child);
    expect(parseProcLimits(await seen)).toBe(8192);
    expect(r.stderr).not.toContain('open files');
    expect(r.stdout).toContain('300 completed\n');
    expect(r.code).toBe(0);
  }, 60_000);

  it('with 630 open files and --concurrency 300 against a service in another process, holds all 300 in flight at once (a stream each, the requests sharing their pool): nothing lowered, nothing short', async () => {
    const sim = await startSim({ port: 0 });
    try {
      const dir = tempDir();
      // Runs of a minute: the child is killed once all 300 are in flight, never waited out.
      const file = questions(dir, 300, ' @duration=60000ms');
      const child = cliUnder('ulimit -Sn 630; ulimit -Hn 630', ['run', file, '--base-url', sim.url, '--concurrency', '300', '--no-download', '--json', '--db', join(dir, 'r.db')], dir, { RESQ_API_KEY: sim.keys[0]! });
      const running = new Set<string>();
      let most = 0;
      let pending = '';
      child.stdout!.on('data', (d: Buffer) => {
        const lines = (pending + d.toString()).split('\n');
        pending = lines.pop()!;
        for (const line of lines) {
          const e = line.startsWith('{') ? (JSON.parse(line) as { type: string; id?: string; state?: string }) : null;
          // Fewer at once than asked: 300 would never be reached (the expectations below say so).
          if (e?.type === 'descriptors') child.kill('SIGKILL');
          if (e?.type !== 'item') continue;
          if (e.state === 'running') running.add(String(e.id));
          else running.delete(String(e.id));
          most = Math.max(most, running.size);
          if (most === 300 && !child.killed) child.kill('SIGKILL');
        }
      });
      const r = await collect(child);
      expect(r.stdout).not.toContain('"type":"descriptors"');
      expect(`${r.stdout}${r.stderr}`).not.toMatch(/EMFILE|too many open files|open files/);
      expect(most).toBe(300);
      expect(r.signal).toBe('SIGKILL');
    } finally {
      await sim.close();
    }
  }, 120_000);
});
