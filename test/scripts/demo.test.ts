// `npm run demo` (scripts/demo.ts) as a newcomer runs it: in a fresh copy of the tracked tree
// (no demo-out/, no database, nothing left by an earlier run), through npm, as a child process.
// node_modules is linked from this checkout rather than installed again (`.ci/run` runs
// `npm ci && npm run demo` itself); what the copy lacks is everything git does not track.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, projectPath, ROOT, run, type Ran } from '../support/package.js';

let copy = '';
let demo: Ran;

/** The files git tracks, copied from this checkout into a new folder (as a clone would hold them). */
function freshCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'resq-fresh-'));
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const f of files) {
    if (!existsSync(join(ROOT, f))) continue; // deleted in the working tree, not yet committed
    mkdirSync(dirname(join(dir, f)), { recursive: true });
    copyFileSync(join(ROOT, f), join(dir, f));
  }
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

/** The project's Node first, and no service of the caller's: the demo needs none. */
function env(): NodeJS.ProcessEnv {
  const e = cleanEnv(projectPath());
  for (const k of ['RESQ_BASE_URL', 'RESQ_API_KEY', 'RESQ_DB']) delete e[k];
  return e;
}

beforeAll(async () => {
  copy = freshCopy();
  demo = await run('npm', ['run', 'demo'], { cwd: copy, env: env() });
}, 120_000);

afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
});

describe('npm run demo', () => {
  it('runs on a fresh copy of the tree (no demo-out folder) and exits 0', () => {
    expect(existsSync(join(copy, 'demo-out'))).toBe(true); // made by the demo, not by the copy
    expect(demo.stderr).not.toMatch(/^resq:/m);
    expect(demo.code).toBe(0);
  });

  it('prints the batch summary and where to look next', () => {
    expect(demo.stdout).toMatch(/batch demo: 11 items — 9 completed, 1 failed, 1 held/);
    expect(demo.stdout).toContain('database: demo-out/resq.db');
    expect(demo.stdout).toContain('The demo ran on the built-in simulator');
    expect(demo.stdout).toContain('npx resq status --db demo-out/resq.db');
    expect(existsSync(join(copy, 'demo-out', 'resq.db'))).toBe(true);
  });

  it('leaves a database the printed `resq status` command reads', async () => {
    const r = await run('npx', ['resq', 'status', '--db', 'demo-out/resq.db'], { cwd: copy, env: env() });
    expect(r.stderr).not.toMatch(/^resq:/m);
    expect(r.stdout).toMatch(/batch demo: 11 items — 9 completed, 1 failed, 1 held/);
  });

  it('runs again over its own earlier output', async () => {
    const again = await run('npm', ['run', 'demo'], { cwd: copy, env: env() });
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/batch demo: 11 items — 9 completed, 1 failed, 1 held/);
  }, 120_000);
});
