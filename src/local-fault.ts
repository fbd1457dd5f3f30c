/**
 * This machine ran short: too many open files (the process's or the system's), no memory or
 * buffers, no disk space. Nothing left the machine (a socket or file could not be made), and
 * waiting frees what others hold: retried, never an item's failure nor the service's, never a
 * crash. The client (api/network-errors.ts) and the web view share these; the simulator keeps its own copy (sim/machine-short.ts).
 */
export const LOCAL_FAULT_CODES: Readonly<Record<string, string>> = {
  EMFILE: 'this process has too many open files',
  ENFILE: 'this machine has too many open files',
  ENOMEM: 'this machine is out of memory',
  ENOBUFS: 'this machine is out of buffer space',
  ENOSPC: "this machine's disk is full",
};

/** Whether an error code names a local fault (EMFILE, ENFILE, ENOMEM, ENOBUFS, ENOSPC). */
export function isLocalCode(code: unknown): code is string {
  return typeof code === 'string' && Object.hasOwn(LOCAL_FAULT_CODES, code);
}

/** Whether a system error (its own `code`) is a local fault. */
export function isLocalErrno(err: unknown): boolean {
  return isLocalCode((err as { code?: unknown } | null)?.code);
}
