import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * The most files this process may hold open (its soft RLIMIT_NOFILE), or null when unknown
 * or unlimited.
 *
 * Raising it is Node's own work: at start Node lifts the soft limit to the hard one
 * (PlatformInit in node.cc), so what is read here is already the most the process may have
 * without a privilege — no re-exec through `ulimit` is needed. Node has no getrlimit, so:
 * on Linux /proc/self/limits (this very process's limits, read without starting anything);
 * elsewhere `ulimit -n` in a shell, which inherits this process's limits (POSIX sh has it
 * everywhere resq runs; a few ms, once per session). Windows has no such limit: null.
 */
export function readDescriptorLimit(): number | null {
  if (process.platform === 'win32') return null;
  try {
    return parseProcLimits(readFileSync('/proc/self/limits', 'utf8'));
  } catch {
    // No /proc (macOS, the BSDs): ask a shell.
  }
  try {
    return parseUlimit(execFileSync('/bin/sh', ['-c', 'ulimit -n'], { encoding: 'utf8', timeout: 5000, stdio: ['ignore', 'pipe', 'ignore'] }));
  } catch {
    return null;
  }
}

/** The soft limit of open files from the text of /proc/PID/limits; null when absent or unlimited. */
export function parseProcLimits(text: string): number | null {
  const m = /^Max open files\s+(\S+)/m.exec(text);
  return m ? parseUlimit(m[1]!) : null;
}

/** `ulimit -n`'s answer as a number; null for `unlimited` or anything else. */
export function parseUlimit(text: string): number | null {
  const t = text.trim();
  return /^\d+$/.test(t) ? Number(t) : null;
}
