import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, tempDir } from './cli.js';

/**
 * An earlier resq, from this clone's git history, run as a child process through its own bin:
 * how the migration tests make a database the way the code before a migration left it, instead
 * of taking a new one back by hand. (The repository has no release tags: a release is named by
 * its commit.)
 */

/** A commit before 017 (the outbox) and 019 (the lean store, issue 32): its schema is 016's. */
export const COMMIT_BEFORE_019 = '54dfee6decdeb30f5004522b7f946a4080c6e81b';
/** The last commit before 020 (batch_num keys): its schema is 019's. */
export const COMMIT_BEFORE_020 = 'c712a023e4736c3c12945b257929cfab365eede8';

const holds = (commit: string): boolean => {
  try {
    execFileSync('git', ['-C', ROOT, 'cat-file', '-e', `${commit}^{commit}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

/**
 * Whether this clone holds `commit`; a shallow clone is deepened from where it came from first.
 * False only where the history is absent (no .git, or no origin to fetch it from).
 */
export function hasCommit(commit: string): boolean {
  if (holds(commit)) return true;
  try {
    execFileSync('git', ['-C', ROOT, 'fetch', '-q', '--unshallow'], { stdio: 'ignore' });
  } catch {
    try {
      execFileSync('git', ['-C', ROOT, 'fetch', '-q', 'origin', commit], { stdio: 'ignore' });
    } catch {
      // No origin to ask: the caller skips, saying so.
    }
  }
  return holds(commit);
}

/** The old resq's sources (at `commit`) in a folder of their own, with this checkout's node_modules. */
export function oldResq(commit: string): string {
  if (!hasCommit(commit)) throw new Error(`this clone lacks commit ${commit} (its history is absent)`);
  const dir = join(tempDir('resq-old-'), 'resq');
  mkdirSync(dir);
  const tar = execFileSync('git', ['-C', ROOT, 'archive', commit, 'bin', 'src', 'package.json', 'tsconfig.json'], { maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
  execFileSync('tar', ['-x', '-C', dir], { input: tar });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

/** Starts the resq of `commit` with `args` (this Node, the old bin) and `env` over this environment. */
export function spawnOldResq(commit: string, args: string[], env: Record<string, string>): ChildProcess {
  const old = oldResq(commit);
  return spawn(process.execPath, [join(old, 'bin/resq.js'), ...args], {
    cwd: old,
    env: { ...process.env, ...env, FORCE_COLOR: '0', RESQ_BASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}
