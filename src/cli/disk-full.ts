import { maskLocation } from '../store/location.js';
import { oneLine } from '../text/printable.js';

/** Where a command was when the disk filled: its database, and the batch when it had one. */
export interface DiskFullContext {
  /** The `--db` value as given (a URL's password is masked in the message). */
  db?: string | undefined;
  /** The command that carries the batch on (`resq resume BATCH --db …`), when there is one. */
  resume?: string | undefined;
}

/**
 * The one line for a database on a full disk: which database, that nothing was lost (the
 * write that failed was rolled back whole; items stay queued or in flight as stored), and
 * what to run once there is space: the resume command given, or the same command again.
 */
export function diskFullMessage(err: unknown, where: DiskFullContext = {}): string {
  const said = oneLine(err instanceof Error ? err.message : String(err), 120);
  const db = where.db ? `the database ${maskLocation(where.db)}` : 'the database';
  if (where.resume)
    return `${db} is on a full disk (${said}): nothing was lost, the items stay queued or in flight as stored; free some space, then: ${where.resume}`;
  return `${db} is on a full disk (${said}): nothing was lost, the write that failed was not kept; free some space, then run the same command again`;
}
