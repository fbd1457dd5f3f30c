/**
 * The simulator's own test for "this machine ran short" (too many open files, no memory or
 * buffers, no disk): such a fault is waited on, never a crash. Its own copy of the client's list
 * (src/local-fault.ts), as the simulator shares no code with the client it stands in for.
 */
const SHORT = new Set(['EMFILE', 'ENFILE', 'ENOMEM', 'ENOBUFS', 'ENOSPC']);

/** Whether a system error (its own `code`) says this machine ran short. */
export function isMachineShort(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && SHORT.has(code);
}
