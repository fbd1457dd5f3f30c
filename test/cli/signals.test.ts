// Signals, pipes and terminals: the point is a real process, so these spawn the real CLI.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type Sim } from '../../src/sim/index.js';
import { collect, ROOT, spawnCli, tempDir } from '../support/cli.js';
import { runInProcess } from '../support/in-process-cli.js';
import { waitUntil } from '../support/wait-until.js';

const BIN = join(ROOT, 'bin/resq.js');

/** Resolves when `text` appears in the child's stream. */
function waitFor(stream: NodeJS.ReadableStream, text: string | RegExp): Promise<void> {
  return new Promise((resolve) => {
    let seen = '';
    const on = (d: Buffer | string): void => {
      seen += String(d);
      if (typeof text === 'string' ? seen.includes(text) : text.test(seen)) {
        stream.off('data', on);
        resolve();
      }
    };
    stream.on('data', on);
  });
}

describe('signals, pipes and the terminal (real child processes)', () => {
  let sim: Sim;
  /** Runs the simulator admitted for questions starting with `prefix`. */
  const admitted = (prefix: string): number => Object.entries(sim.counters().admissionsByInput).filter(([q]) => q.startsWith(prefix)).reduce((n, [, k]) => n + k, 0);
  let env: Record<string, string>;
  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 20 });
    env = { RESQ_API_KEY: sim.keys[0] ?? '', RESQ_BASE_URL: sim.url };
  });
  afterAll(async () => sim.close());

  for (const [signal, code] of [
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const) {
    it(`${signal} stops like Ctrl-C: writes committed, the summary with the command to resume, exit ${code}`, { timeout: 30_000 }, async () => {
      const dir = tempDir();
      const q = join(dir, `sig${code}.csv`);
      writeFileSync(q, `id,question\n${Array.from({ length: 6 }, (_, i) => `i${i},slow ${signal} ${i} @duration=1500ms`).join('\n')}\n`);
      const db = join(dir, 'r.db');
      const child = spawnCli(['run', q, '--db', db, '--concurrency', '3'], env);
      const done = collect(child);
      await waitFor(child.stderr!, /batch sig\d+: 6 items/);
      // Stopped with runs in flight: the first three admitted at the service.
      await waitUntil(() => admitted(`slow ${signal} `) >= 3, `three runs of sig${code} admitted`);
      child.kill(signal);
      const r = await done;
      expect(r.code, r.stderr).toBe(code);
      expect(r.stderr).toContain(`stopping (${signal}): no new runs are admitted`);
      expect(r.stdout).toMatch(/batch sig\d+: 6 items/);
      expect(r.stderr).toContain(`interrupted; to continue: resq resume sig${code} --db ${db}\n`);
      // What was admitted is recorded: the resume re-attaches and sends nothing twice.
      const resumed = await runInProcess(['resume', `sig${code}`, '--db', db], env);
      expect(resumed.code).toBe(0);
      for (let i = 0; i < 6; i++) expect(sim.counters().admissionsByInput[`slow ${signal} ${i} @duration=1500ms`]).toBe(1);
    });
  }

  it('a closed pipe ends quietly with exit 0: export | head -1, threads list | head, models export | head', { timeout: 60_000 }, async () => {
    const dir = tempDir();
    const q = join(dir, 'many.csv');
    writeFileSync(q, `id,question\n${Array.from({ length: 3000 }, (_, i) => `q${i},${'a long enough question '.repeat(10)}${i}`).join('\n')}\n`);
    const db = join(dir, 'r.db');
    expect((await runInProcess(['run', q, '--db', db, '--dry-run'])).code).toBe(0);
    const models = join(dir, 'm.csv');
    writeFileSync(models, `text\n${Array.from({ length: 2000 }, (_, i) => `hello ${'x'.repeat(100)} ${i}`).join('\n')}\n`);
    const mdb = join(dir, 'm.db');
    expect((await runInProcess(['models', 'batch', 'echo', models, '--db', mdb, '--base-url', sim.url, '--no-download'], env)).code).toBe(0);
    const node = process.execPath;
    const cases: [string, string][] = [
      ['export', `"${node}" "${BIN}" export --db "${db}" | head -1`],
      ['threads', `"${node}" "${BIN}" threads list --base-url "${sim.url}" | head -0`],
      ['models export', `"${node}" "${BIN}" models export --db "${mdb}" | head -1`],
    ];
    for (const [what, pipeline] of cases) {
      const err = join(dir, `${what.replace(' ', '-')}.err`);
      const sh = spawn('bash', ['-c', `set -o pipefail; ${pipeline.replace(' |', ` 2>"${err}" |`)}`], {
        env: { ...process.env, RESQ_API_KEY: sim.keys[0] },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const r = await collect(sh);
      expect(readFileSync(err, 'utf8'), what).toBe('');
      expect(r.code, what).toBe(0);
    }
  });

  describe('on a terminal (a pseudo-terminal through script(1))', () => {
    const inPty = (cmd: string, extraEnv: Record<string, string> = {}) =>
      spawn('script', ['-qec', cmd, '/dev/null'], { env: { ...process.env, ...extraEnv, COLUMNS: '80', LINES: '24' }, stdio: ['pipe', 'pipe', 'pipe'] });

    it('restores the cursor and line wrap at start (after a kill -9 of an earlier one) and at exit', { timeout: 30_000 }, async () => {
      // One terminal, two resq in turn: a run showing its bar (cursor hidden) is killed with
      // SIGKILL by its pid, so it restores nothing; the next resq on that terminal must.
      const dir = tempDir();
      const q = join(dir, 'k9.csv');
      writeFileSync(q, `id,question\n${Array.from({ length: 4 }, (_, i) => `k${i},killed ${i} @duration=20s`).join('\n')}\n`);
      const pidFile = join(dir, 'pid');
      const node = process.execPath;
      const child = inPty(
        `stty cols 80; "${node}" "${BIN}" run "${q}" --db "${join(dir, 'r.db')}" --concurrency 2 & echo $! > "${pidFile}"; wait $!; echo "exit $?"; "${node}" "${BIN}" status --db /nonexistent-folder/x.db`,
        env,
      );
      const done = collect(child);
      await waitFor(child.stdout!, /\] 0\/4/);
      process.kill(Number(readFileSync(pidFile, 'utf8').trim()), 'SIGKILL');
      const r = await done;
      const [killed, after] = r.stdout.split(/exit 137\r?\n/);
      expect(after, r.stdout).toBeDefined();
      // The killed run hid the cursor and never showed it again.
      expect(killed).toContain('\x1b[?25l');
      expect(killed!.slice(killed!.lastIndexOf('\x1b[?25l'))).not.toContain('\x1b[?25h');
      // The next resq on that terminal restores both first thing, and again at its exit.
      expect(after!.startsWith('\x1b[?25h\x1b[?7h'), JSON.stringify(after!.slice(0, 40))).toBe(true);
      expect(after!.trimEnd().endsWith('\x1b[?25h\x1b[?7h')).toBe(true);
    });

    it('after Ctrl-C with the bar live, the stopping line and the summary do not overwrite each other; the bar fits 80 columns', { timeout: 30_000 }, async () => {
      const dir = tempDir();
      const q = join(dir, 'tty.csv');
      writeFileSync(q, `id,question\n${Array.from({ length: 4 }, (_, i) => `t${i},tty ${i} @duration=2000ms`).join('\n')}\n`);
      const db = join(dir, 'r.db');
      const child = inPty(`stty cols 80; "${process.execPath}" "${BIN}" run "${q}" --db "${db}" --concurrency 2`, env);
      const done = collect(child);
      await waitFor(child.stdout!, /\] 0\/4/);
      await waitUntil(() => admitted('tty ') >= 2, 'two runs of tty admitted');
      child.stdin!.write('\x03');
      const r = await done;
      const raw = r.stdout;
      expect(raw).not.toMatch(/\x1b[78]/);
      const lines = raw
        .replace(/\x1b\[\?(25|7)[lh]/g, '')
        .split(/\r?\n/)
        .map((l) => l.split('\r').at(-1)!.replace(/\x1b\[K/g, ''));
      const stopping = lines.findIndex((l) => l.startsWith('stopping (SIGINT)'));
      const summary = lines.findIndex((l) => l.startsWith('batch tty: 4 items'));
      expect(stopping, raw).toBeGreaterThanOrEqual(0);
      expect(summary).toBeGreaterThan(stopping);
      expect(lines.some((l) => l.startsWith('interrupted; to continue: resq resume tty --db'))).toBe(true);
      for (const l of lines.filter((x) => x.startsWith('['))) expect(l.length).toBeLessThanOrEqual(79);
    });
  });
});
