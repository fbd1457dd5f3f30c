import { DbWait } from '../db-wait.js';

/** Whether SQLite refused for a lock another connection holds (wait and try again). */
export function isBusy(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

/**
 * Whether SQLite refused because the database cannot grow (its disk is full, or a size cap):
 * SQLite may then have rolled the whole transaction back, so nothing of it is kept.
 */
export function isFull(e: unknown): boolean {
  return (e as { code?: unknown } | null)?.code === 'SQLITE_FULL';
}

/** Delay before the `attempt`-th retry of a busy operation: 5 ms doubling to 500 ms, full jitter. */
export function busyDelayMs(attempt: number, random: () => number = Math.random): number {
  return Math.floor(random() * Math.min(500, 5 * 2 ** attempt));
}

/**
 * `SQLITE_BUSY` (or `_LOCKED`) for a busy file, `SQLITE_CANTOPEN` for a file SQLite could not
 * open while running (its journal or a temporary file: this process out of descriptors,
 * EMFILE), else null: what {@link DbWait} waits out. Opening the database itself does not
 * come here: a path that cannot be opened is said at once.
 */
export function busyReason(e: unknown): string | null {
  if (isBusy(e)) return String((e as { code: string }).code);
  return (e as { code?: unknown } | null)?.code === 'SQLITE_CANTOPEN' ? 'SQLITE_CANTOPEN' : null;
}

/**
 * Runs `fn` until it does not fail busy. The busy timeout already waits inside SQLite; this
 * covers what it cannot (a lock upgrade refused at once, a timeout passed under heavy
 * load): a busy database is waited on, never an item's failure. Given a {@link DbWait}, the
 * wait is the store's one policy (db-wait.ts): bounded, said once.
 */
export async function retryBusy<T>(fn: () => T, sleep: ((ms: number) => Promise<void>) | DbWait): Promise<T> {
  if (sleep instanceof DbWait) return sleep.run(async () => fn(), busyReason);
  for (let attempt = 0; ; attempt++) {
    try {
      return fn();
    } catch (e) {
      if (!isBusy(e)) throw e;
      await sleep(busyDelayMs(attempt));
    }
  }
}

/** The same for the few synchronous places (opening, migrating): sleeps by blocking. */
export function retryBusySync<T>(fn: () => T): T {
  for (let attempt = 0; ; attempt++) {
    try {
      return fn();
    } catch (e) {
      if (!isBusy(e)) throw e;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, busyDelayMs(attempt) + 1);
    }
  }
}
