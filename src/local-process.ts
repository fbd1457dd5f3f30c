import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

/**
 * Whether a worker's process of this host still runs: the one judgement of a local worker's
 * liveness, for the workers of a batch (presence), `resq status` and the web page alike.
 * A pid alone is not enough: after a worker dies its pid may be given to another program,
 * or, after a reboot, to anything. So a worker registers its process's start identity (on
 * Linux the boot id and the start time in clock ticks since boot, field 22 of
 * /proc/PID/stat) and a process of its pid with another identity is not it.
 */

let bootIdRead: string | null | undefined;

/** This boot's id (Linux), read once; null elsewhere. */
function bootId(): string | null {
  if (bootIdRead === undefined) {
    try {
      bootIdRead = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || null;
    } catch {
      bootIdRead = null;
    }
  }
  return bootIdRead;
}

/**
 * The start identity of the process `pid` of this host, `BOOT_ID:STARTTIME`, or null when the
 * host does not tell (no /proc: not Linux) or no such process runs.
 */
export function processStart(pid: number): string | null {
  if (!Number.isInteger(pid) || pid <= 0) return null;
  const boot = bootId();
  if (boot === null) return null;
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // Field 2, the command name, is in parentheses and may hold spaces and parentheses itself:
  // the fields after it start after the last ')'. Field 3 is then the first, 22 the 20th.
  const start = stat.slice(stat.lastIndexOf(')') + 1).trim().split(/\s+/)[19];
  return start !== undefined && /^\d+$/.test(start) ? `${boot}:${start}` : null;
}

/**
 * Whether the process a worker registered, `pid` started as `pidStart`, still runs on this
 * host: its pid exists (under any user) and, when both are known, with the same start
 * identity. A worker registered without one (an older resq, a host that does not tell) is
 * judged by its pid alone.
 */
export function localProcessAlive(pid: number, pidStart: string | null): boolean {
  // 0 and negative pids name process groups to kill(2): never a worker's process.
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (e) {
    // EPERM: it exists, under another user.
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (pidStart === null) return true;
  const now = processStart(pid);
  // Unreadable although the pid answered: it ended in between, or /proc hides it (hidepid):
  // the pid is all there is to go by.
  return now === null || now === pidStart;
}

/**
 * Whether a worker of the batch is gone: it ran on `host` (this one by default) and its
 * process no longer runs. Another host's workers are never judged here: their heartbeat
 * decides.
 */
export function isGoneHere(w: { host: string; pid: number; pidStart: string | null }, host: string = hostname()): boolean {
  return w.host === host && !localProcessAlive(w.pid, w.pidStart);
}
