import { Writable } from 'node:stream';

/** The signals that stop a batch like Ctrl-C, and the exit code each one gives (128 + number). */
export const STOP_SIGNALS = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

/** A signal that stops a command. */
export type StopSignal = keyof typeof STOP_SIGNALS;

/**
 * Everything a command may touch of the outside world: its output sinks, the environment,
 * the terminal, stop signals. Only src/cli/main.ts builds one from `process`; tests build one
 * in memory ({@link memoryIo}) and run commands in-process.
 */
export interface CliIo {
  /** Results (exports, JSON lines, summaries). */
  stdout: NodeJS.WritableStream;
  /** Progress, warnings, hints, errors. */
  stderr: NodeJS.WritableStream;
  /** The environment (RESQ_BASE_URL, RESQ_API_KEY, RESQ_DB, …). */
  env: NodeJS.ProcessEnv;
  /** True when stderr is a terminal: a live bar instead of plain lines. */
  isTTY: boolean;
  /** Width of the terminal in columns (80 when unknown). */
  columns: number;
  /** The time status and heartbeat ages are read at (tests inject one). @default the system clock */
  clock?: { now(): number };
  /** Calls `handler` on SIGINT, SIGTERM or SIGHUP until the returned function is called. */
  onStop(handler: (signal: StopSignal) => void): () => void;
  /** Ends the process at once (a second Ctrl-C). In memory: throws. */
  exitNow(code: number): void;
}

/** An output sink that keeps what was written, as text. */
export class MemorySink extends Writable {
  #chunks: string[] = [];
  override _write(chunk: Buffer | string, _enc: BufferEncoding, cb: (e?: Error | null) => void): void {
    this.#chunks.push(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
    cb();
  }
  /** Everything written so far. */
  get text(): string {
    return this.#chunks.join('');
  }
}

/** An in-memory {@link CliIo} for tests: `stop(signal)` delivers a stop signal to the command. */
export interface MemoryIo extends CliIo {
  stdout: MemorySink;
  stderr: MemorySink;
  stop(signal: StopSignal): void;
}

/** Builds an in-memory {@link CliIo}. */
export function memoryIo(opts: { env?: NodeJS.ProcessEnv; isTTY?: boolean; columns?: number; clock?: { now(): number } } = {}): MemoryIo {
  const handlers = new Set<(s: StopSignal) => void>();
  return {
    stdout: new MemorySink(),
    stderr: new MemorySink(),
    env: opts.env ?? {},
    isTTY: opts.isTTY ?? false,
    columns: opts.columns ?? 80,
    ...(opts.clock ? { clock: opts.clock } : {}),
    onStop: (h) => {
      handlers.add(h);
      return () => handlers.delete(h);
    },
    exitNow: (code) => {
      throw new Error(`exit ${code}`);
    },
    stop: (s) => {
      for (const h of [...handlers]) h(s);
    },
  };
}

/** Writes a line to a sink. */
export function line(out: NodeJS.WritableStream, text: string): void {
  out.write(`${text}\n`);
}

/** Shows the cursor and turns line wrap back on: what a bar (ours, or a killed child's) may have left off. */
export const RESTORE_TERMINAL = '\x1b[?25h\x1b[?7h';
