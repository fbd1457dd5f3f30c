import { closeSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';

/** Who holds a simulator state file, as written in its lock (`<state>.lock`). */
export interface StateHolder {
  pid: number;
  host: string;
  /** Set when the holder serves the simulator for other processes (`resq sim --db`): where, and a key. */
  serving: { url: string; key: string } | null;
}

/** A simulator state file another live process holds (two writers would lose each other's runs). */
export class SimStateInUseError extends Error {
  readonly code = 'SIM_STATE_IN_USE';
  readonly statePath: string;
  readonly holder: StateHolder;
  constructor(statePath: string, holder: StateHolder) {
    super(`${statePath} is in use by process ${holder.pid} on ${holder.host}`);
    this.statePath = statePath;
    this.holder = holder;
  }
}

/** A held lock of a simulator state file. */
export interface StateLock {
  /** Says in the lock where this process serves the simulator (URL and a key), so others connect to it. */
  serve(serving: { url: string; key: string }): void;
  /** Removes the lock (when it is still this process's). */
  release(): void;
}

/** The lock file of a simulator state file. */
export function lockPathOf(statePath: string): string {
  return `${statePath}.lock`;
}

/**
 * Takes the lock of a state file for this process: one process at a time keeps a state
 * file (each saves its whole state, so a second writer would drop the first one's runs).
 * A lock left by a process gone from this host is taken over. Returns the lock: `serve`
 * writes into it where this process serves the simulator, for others to connect to.
 * @throws {SimStateInUseError} when a live process (or one on another host, which cannot be checked) holds it.
 */
export function lockState(statePath: string): StateLock {
  const path = lockPathOf(statePath);
  const mine: StateHolder = { pid: process.pid, host: hostname(), serving: null };
  for (let attempt = 0; ; attempt++) {
    let fd: number;
    try {
      fd = openSync(path, 'wx', 0o600);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 2) throw e;
      const holder = readHolder(path);
      if (holder && isAlive(holder)) throw new SimStateInUseError(statePath, holder);
      // Stale (or half-written by a process that died): moved aside, so two takers cannot both remove a fresh lock.
      try {
        renameSync(path, `${path}.stale-${process.pid}`);
        rmSync(`${path}.stale-${process.pid}`, { force: true });
      } catch {
        // Another process took it over first: try again and meet its lock.
      }
      continue;
    }
    try {
      writeSync(fd, `${JSON.stringify(mine)}\n`);
    } finally {
      closeSync(fd);
    }
    let released = false;
    return {
      serve: (serving) => {
        // Written whole to a new name, then renamed: a reader never sees half of it.
        writeFileSync(`${path}.${process.pid}`, `${JSON.stringify({ ...mine, serving })}\n`, { mode: 0o600 });
        renameSync(`${path}.${process.pid}`, path);
      },
      release: () => {
        if (released) return;
        released = true;
        // Removed only while it is still ours.
        const now = readHolder(path);
        if (now && now.pid === mine.pid && now.host === mine.host) rmSync(path, { force: true });
      },
    };
  }
}

/**
 * The simulator serving a state file for other processes (`resq sim --db`), when a live
 * process on this host does: its URL and a key to use. Null when none does.
 */
export function sharedSim(statePath: string): { url: string; key: string } | null {
  const holder = readHolder(lockPathOf(statePath));
  if (!holder?.serving || holder.host !== hostname() || !isAlive(holder)) return null;
  return holder.serving;
}

/** The holder a lock file names; null when there is none or it is not one (half-written). */
export function readHolder(lockPath: string): StateHolder | null {
  let text: string;
  try {
    text = readFileSync(lockPath, 'utf8');
  } catch {
    return null;
  }
  try {
    const h = JSON.parse(text) as Partial<StateHolder>;
    if (typeof h.pid !== 'number' || typeof h.host !== 'string') return null;
    const s = h.serving;
    const serving = s && typeof s.url === 'string' && typeof s.key === 'string' ? { url: s.url, key: s.key } : null;
    return { pid: h.pid, host: h.host, serving };
  } catch {
    return null;
  }
}

/** Whether the holder still runs: checked on this host; a holder on another host is taken to. */
function isAlive(h: StateHolder): boolean {
  if (h.host !== hostname()) return true;
  if (h.pid === process.pid) return true;
  try {
    process.kill(h.pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
