// The bin re-executes itself once with the CLI's V8 heap flags: the same process (pid,
// stdio, exit code), now with the flags, and the user's own node flags kept.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HEAP_FLAGS, heapFlagsFor, RUNS_HEAP_FLAGS } from '../../bin/heap-flags.js';
import { collect, ROOT, spawnCli, tempDir } from '../support/cli.js';
import { cleanEnv, projectPath, run } from '../support/package.js';

/** Preloaded into the child: says at exit which process it was and with which flags. */
const HOOK = `
import { writeFileSync } from 'node:fs';
process.on('exit', () => writeFileSync(process.env.RESQ_TEST_PROC, JSON.stringify({ pid: process.pid, execArgv: process.execArgv })));
`;

describe('bin/resq.js', () => {
  it('runs with the heap flags, in the process that was started, keeping its exit code and output', async () => {
    const dir = tempDir();
    const hook = join(dir, 'hook.mjs');
    writeFileSync(hook, HOOK);
    const out = join(dir, 'proc.json');
    const child = spawnCli(['status', '--db', join(dir, 'none.db')], {
      NODE_OPTIONS: `--import=${pathToFileURL(hook).href}`,
      RESQ_TEST_PROC: out,
    });
    const r = await collect(child);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('none.db');
    const seen = JSON.parse(readFileSync(out, 'utf8')) as { pid: number; execArgv: string[] };
    expect(seen.pid).toBe(child.pid);
    for (const f of HEAP_FLAGS) expect(seen.execArgv).toContain(f);
  });

  it('a command that keeps runs in flight runs with the larger young generation', async () => {
    const dir = tempDir();
    const hook = join(dir, 'hook.mjs');
    writeFileSync(hook, HOOK);
    const out = join(dir, 'proc.json');
    writeFileSync(join(dir, 'q.csv'), 'id,question\na,What is 2 + 2?\n');
    const r = await collect(
      spawnCli(['run', join(dir, 'q.csv'), '--db', join(dir, 'r.db'), '--dry-run'], { NODE_OPTIONS: `--import=${pathToFileURL(hook).href}`, RESQ_TEST_PROC: out }),
    );
    expect(r.code, r.stderr).toBe(0);
    const seen = JSON.parse(readFileSync(out, 'utf8')) as { execArgv: string[] };
    for (const f of RUNS_HEAP_FLAGS) expect(seen.execArgv).toContain(f);
    expect(RUNS_HEAP_FLAGS).not.toEqual(HEAP_FLAGS);
  });

  it("a checkout runs in a Node with type stripping turned off: its CLI is a bundle of the sources, not the sources", async () => {
    const dir = tempDir();
    const r = await collect(spawnCli(['status', '--db', join(dir, 'none.db')], { NODE_OPTIONS: '--no-experimental-strip-types' }));
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringContaining('none.db')]);
  });

  it('heapFlagsFor: the first word of the command line decides', () => {
    expect(heapFlagsFor(['run', 'q.csv'])).toBe(RUNS_HEAP_FLAGS);
    expect(heapFlagsFor(['--json', 'resume', 'b'])).toBe(RUNS_HEAP_FLAGS);
    expect(heapFlagsFor(['models', 'batch', 'q.jsonl'])).toBe(RUNS_HEAP_FLAGS);
    expect(heapFlagsFor(['files', 'pull'])).toBe(HEAP_FLAGS);
    expect(heapFlagsFor(['status'])).toBe(HEAP_FLAGS);
    expect(heapFlagsFor([])).toBe(HEAP_FLAGS);
  });
});

describe('resq --version', () => {
  it('prints the package version, alone or beside other options', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    for (const args of [['--version'], ['--version', '--json']]) {
      const r = await collect(spawnCli(args));
      expect(r).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: '' });
    }
  });
});

describe('npm run resq', () => {
  it('runs in the folder it was typed in, not the repository root', async () => {
    mkdirSync(join(ROOT, '.tmp'), { recursive: true });
    const dir = mkdtempSync(join(ROOT, '.tmp', 'npm-run-resq-'));
    try {
      writeFileSync(join(dir, 'q.csv'), 'id,question\na,What is 2 + 2?\n');
      const r = await run('npm', ['run', '--silent', 'resq', '--', 'run', 'q.csv', '--dry-run'], { cwd: dir, env: cleanEnv(projectPath()) });
      expect(r.stderr).not.toMatch(/error/i);
      expect(r.code).toBe(0);
      expect(existsSync(join(dir, 'resq.db'))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
