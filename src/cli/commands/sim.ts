import type { Argv } from 'yargs';
import { InputError } from '../../errors.js';
import type { CommandContext } from '../cli.js';
import { EXIT } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { wholeNumber } from '../whole-number.js';

/** Flags of `resq sim`. */
export interface SimArgs {
  port: number;
  host: string;
  duration?: number;
  json: boolean;
}

/** Checks a port: a whole number from 0 (any free port) to 65535. */
export function checkPort(port: number): number {
  return wholeNumber('port', port, 0, 65535, ' (0 = any free port)');
}

/** `resq sim`: serves the simulator until a stop signal; returns the exit code. */
export async function serveSimCommand(a: SimArgs, io: CliIo): Promise<number> {
  checkPort(a.port);
  // The simulator is loaded only by the commands that start it.
  const { serveSim } = await import('../../sim/serve.js');
  let sim: Awaited<ReturnType<typeof serveSim>>;
  try {
    sim = await serveSim({ port: a.port, host: a.host, ...(a.duration !== undefined ? { defaultDurationMs: a.duration } : {}) });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new InputError(`--port ${a.port}: already in use on ${a.host} (pick another, or --port 0 for any free port)`);
    if (code === 'EACCES') throw new InputError(`--port ${a.port}: not allowed on ${a.host} (ports below 1024 need privileges)`);
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new InputError(`--host ${a.host}: not an address of this machine`);
    throw err;
  }
  if (a.json) io.stdout.write(`${JSON.stringify({ url: sim.url, keys: sim.keys })}\n`);
  else
    io.stdout.write(
      `simulator serving ${sim.url}\nkeys: ${sim.keys.join(', ')}\n` +
        `try: RESQ_BASE_URL=${sim.url} RESQ_API_KEY=${sim.keys[0]} resq run pipelines/demo.yaml --base-url ${sim.url}\n` +
        `controls: GET ${sim.origin}/_sim/counters, POST ${sim.origin}/_sim/faults, POST ${sim.origin}/_sim/clock\n`,
    );
  await new Promise<void>((resolve) => {
    const off = io.onStop(() => {
      off();
      resolve();
    });
  });
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
        .option('port', { type: 'number', default: 8787, describe: 'port on 127.0.0.1 (0 = any free port)' })
        .option('host', { type: 'string', default: '127.0.0.1' })
        .option('duration', { type: 'number', describe: 'default working time of a run, in ms' }),
    async (argv) => {
      ctx.code = await serveSimCommand(argv as unknown as SimArgs, ctx.io);
    },
  );
}
