// Open files for the scenarios at 10,000 runs in flight. `resq run` fits its runs in flight to
// the open files it may hold (src/runner/descriptor-fit.ts: 10,929 for 10,000 runs) and runs
// fewer when they are short, saying so in a `descriptors` event: then "10,000 in flight" is
// never reached. The bench raises its own limit before it spawns anything when it may (the
// simulator and every client are its children and inherit it; Node lifts each child's soft
// limit to the hard one), and says why not when it may not (no CAP_SYS_RESOURCE).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseProcLimits } from '../../../src/runner/descriptor-limit.js';

/** This process's open-file limits (soft, hard) from /proc; null for unlimited or unknown. */
export function descriptorLimits(pid: number | 'self' = 'self'): { soft: number | null; hard: number | null } {
  const text = readFileSync(`/proc/${pid}/limits`, 'utf8');
  const hard = /^Max open files\s+\S+\s+(\S+)/m.exec(text)?.[1];
  return { soft: parseProcLimits(text), hard: hard && /^\d+$/.test(hard) ? Number(hard) : null };
}

/** What {@link ensureDescriptors} found or did, for the scenario's rows. */
export interface DescriptorRoom {
  /** The soft limit now (what children start with as their hard one); null when unlimited. */
  limit: number | null;
  /** Whether it had to be raised (with prlimit, which needs CAP_SYS_RESOURCE to go above the hard limit). */
  raised: boolean;
  /** Why it could not be raised to `needed`, when it could not. */
  short?: string;
}

/**
 * Makes room for `needed` open files in this process and so in every child it spawns after:
 * raises the soft and hard limit with `prlimit` when they are lower. Says why when it cannot
 * (no privilege, no prlimit): the caller fails with that line rather than measure fewer runs.
 */
export function ensureDescriptors(needed: number): DescriptorRoom {
  const before = descriptorLimits();
  if (before.soft === null || before.soft >= needed) return { limit: before.soft, raised: false };
  const to = Math.max(needed, before.hard ?? 0);
  try {
    execFileSync('prlimit', ['--pid', String(process.pid), `--nofile=${to}:${to}`], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (err) {
    const why = String((err as { stderr?: Buffer }).stderr ?? (err as Error).message).trim().split('\n')[0];
    return { limit: before.soft, raised: false, short: `needs ${needed} open files, may open ${before.soft} (hard ${before.hard ?? 'unlimited'}); prlimit: ${why}; raise it before the bench: ulimit -n ${needed}` };
  }
  return { limit: descriptorLimits().soft, raised: true };
}
