// Transitional: `resq run`, `resume` and `status` (and attach.ts under them) are being rewritten
// as functions of their arguments and a CliIo; until then they find the IO of the running
// command here and report their exit code through process.exitCode. Nothing else uses this.
import type { CliIo } from './io.js';

let current: CliIo | null = null;

/** The IO of the command that runs now (set by runCli). */
export function ambientIo(): CliIo {
  if (!current) throw new Error('no command is running (runCli sets the IO)');
  return current;
}

/** The environment of the command that runs now; outside a command (library callers), the process's. */
export function ambientEnv(): NodeJS.ProcessEnv {
  return current?.env ?? process.env;
}

/** Makes `io` the ambient IO while a command runs; `done` clears it. */
export function setAmbientIo(io: CliIo): { done(): void; legacyExitCode(): number | null } {
  current = io;
  process.exitCode = undefined;
  return {
    done: () => {
      current = null;
    },
    legacyExitCode: () => {
      const code = process.exitCode;
      process.exitCode = undefined;
      return typeof code === 'number' ? code : null;
    },
  };
}
