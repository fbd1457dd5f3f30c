import { resolve } from 'node:path';
import type { Argv } from 'yargs';
import { InputError } from '../../errors.js';
import type { CommandContext } from '../command-context.js';
import { EXIT } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { wholeNumber } from '../whole-number.js';
import { commandHint } from '../../text/command-hint.js';

/** Flags of `resq sim`. */
export interface SimArgs {
  port?: number;
  /** Serve the simulator of this database's `--sim` batches (its state beside it), shared by every `--sim` process on it. */
  db?: string;
  host: string;
  duration?: number;
  json: boolean;
}

/** Checks a port: a whole number from 0 (any free port) to 65535. */
export function checkPort(port: number): number {
  return wholeNumber('port', port, 0, 65535, ' (0 = any free port)');
}

/**
 * What to paste into another terminal to run a batch on this simulator, from any folder (it
 * writes its own one-question file: no checkout needed).
 */
export function simTryLines(url: string, key: string): string {
  return [
    'try, in another terminal (any folder):',
    `  export RESQ_BASE_URL=${url} RESQ_API_KEY=${key}`,
    `  printf 'question\\nWhat limits the resolution of a light microscope?\\n' > resq-try.csv`,
    '  resq run resq-try.csv --db resq-try.db',
    '',
  ].join('\n');
}

// Not from the store's module: --help loads this file (see lazy-loading.test.ts).
const POSTGRES_URL = /^postgres(ql)?:\/\//i;

/**
 * The database whose `--sim` state `resq sim` serves: `--db`, else RESQ_DB when it is a
 * postgres:// URL (every hint for such a database relies on RESQ_DB, so `resq sim` as printed
 * must serve it); null for a plain simulator. `from` says which, to print.
 */
function simDatabase(a: Pick<SimArgs, 'db'>, env: NodeJS.ProcessEnv): { db: string; from: '--db' | 'RESQ_DB' } | null {
  if (a.db) return { db: a.db, from: '--db' };
  const fromEnv = env.RESQ_DB;
  return fromEnv && POSTGRES_URL.test(fromEnv) ? { db: fromEnv, from: 'RESQ_DB' } : null;
}

/** The lines `resq sim` starts with for a database's simulator: what it serves, where its state is, how to use it. */
function simDbLines(served: { db: string; from: '--db' | 'RESQ_DB' }, url: string, statePath: string, masked: string): string {
  const server = POSTGRES_URL.test(served.db);
  const state = server
    ? `its state is kept in ${statePath} (this folder: --sim processes on this database share it when started here)`
    : `its state is kept in ${statePath} (beside the database)`;
  return [
    `simulator of ${masked}${served.from === 'RESQ_DB' ? ' (RESQ_DB)' : ''} serving ${url}`,
    state + (served.from === 'RESQ_DB' ? '; for a plain simulator instead: RESQ_DB= resq sim' : ''),
    `every --sim process on this database shares it: ${commandHint(['resq', 'run', 'QUESTIONS.csv', '--sim'], { db: served.db })}`,
    '',
  ].join('\n');
}

/** `resq sim`: serves the simulator until a stop signal; returns the exit code. */
export async function simHandler(a: SimArgs, io: CliIo): Promise<number> {
  const served = simDatabase(a, io.env);
  // A database's simulator takes the port its state was served on (its recorded URLs stay valid), or any free one.
  const port = a.port ?? (served ? 0 : 8787);
  checkPort(port);
  // The simulator is loaded only by the commands that start it.
  const { serveSim } = await import('../../sim/serve.js');
  const kept = served ? (await import('../service.js')).simStatePath(served.db) : null;
  const statePath = kept ? resolve(kept) : null;
  const masked = served ? (await import('../../store/location.js')).maskLocation(served.db) : '';
  let sim: Awaited<ReturnType<typeof serveSim>>;
  try {
    sim = await serveSim({ port, host: a.host, ...(statePath ? { statePath, serveState: true } : {}), ...(a.duration !== undefined ? { defaultDurationMs: a.duration } : {}) });
  } catch (err) {
    if (err instanceof (await import('../../sim/index.js')).SimStateInUseError)
      throw new InputError(`${served!.from} ${masked}: its simulator is already served by process ${err.holder.pid} on ${err.holder.host}`);
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new InputError(`--port ${port}: already in use on ${a.host} (pick another, or --port 0 for any free port)`);
    if (code === 'EACCES') throw new InputError(`--port ${port}: not allowed on ${a.host} (ports below 1024 need privileges)`);
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new InputError(`--host ${a.host}: not an address of this machine`);
    throw err;
  }
  // Listening for a stop before saying where it serves: a signal sent on reading that line stops it cleanly.
  const stopped = new Promise<void>((resolve) => {
    const off = io.onStop(() => {
      off();
      resolve();
    });
  });
  if (a.json) io.stdout.write(`${JSON.stringify({ url: sim.url, keys: sim.keys, state: statePath })}\n`);
  else if (served && statePath) io.stdout.write(simDbLines(served, sim.url, statePath, masked));
  else
    io.stdout.write(
      `simulator serving ${sim.url}\nkeys: ${sim.keys.join(', ')}\n` +
        'its state is kept in memory only (gone when it stops; `resq sim --db DB` keeps the state of a database\'s --sim batches)\n' +
        simTryLines(sim.url, sim.keys[0] ?? '') +
        `controls: GET ${sim.origin}/_sim/counters, POST ${sim.origin}/_sim/faults, POST ${sim.origin}/_sim/clock\n`,
    );
  await stopped;
  await sim.close();
  return EXIT.ok;
}

/** Registers `resq sim`. */
export function simCommand(y: Argv, ctx: CommandContext): Argv {
  return y.command(
    'sim',
    'serve the simulator of the whole service (Ctrl-C to stop)',
    (a) =>
      a
        .option('port', { type: 'number', describe: 'port on 127.0.0.1 (0 = any free port) [default: 8787; with --db the port it had, else any free one]' })
        .option('db', { type: 'string', default: undefined, describe: "serve this database's --sim state, shared by every --sim process on it [default: $RESQ_DB when a postgres:// URL]" })
        .option('host', { type: 'string', default: '127.0.0.1', describe: 'address to listen on' })
        .option('duration', { type: 'number', describe: 'default working time of a run, in ms' }),
    async (argv) => {
      ctx.code = await simHandler(argv as unknown as SimArgs, ctx.io);
    },
  );
}
