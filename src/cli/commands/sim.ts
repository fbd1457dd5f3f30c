import type { Argv } from 'yargs';

/** Registers `resq sim`. */
export function simCommand(y: Argv): Argv {
  return y.command(
    'sim',
    'serve the simulator of the whole service (Ctrl-C to stop)',
    (a) =>
      a
        .option('port', { type: 'number', default: 8787, describe: 'port on 127.0.0.1 (0 = any free port)' })
        .option('host', { type: 'string', default: '127.0.0.1' })
        .option('duration', { type: 'number', describe: 'default working time of a run, in ms' }),
    async (argv) => {
      const a = argv as unknown as { port: number; host: string; duration?: number; json: boolean };
      // The simulator is loaded only by the commands that start it.
      const { serveSim } = await import('../../sim/serve.js');
      const sim = await serveSim({ port: a.port, host: a.host, ...(a.duration !== undefined ? { defaultDurationMs: a.duration } : {}) });
      if (a.json) process.stdout.write(`${JSON.stringify({ url: sim.url, keys: sim.keys })}\n`);
      else
        process.stdout.write(
          `simulator serving ${sim.url}\nkeys: ${sim.keys.join(', ')}\n` +
            `try: RESQ_BASE_URL=${sim.url} RESQ_API_KEY=${sim.keys[0]} npx resq run pipelines/demo.yaml --base-url ${sim.url}\n` +
            `controls: GET ${sim.origin}/_sim/counters, POST ${sim.origin}/_sim/faults, POST ${sim.origin}/_sim/clock\n`,
        );
      await new Promise<void>((resolve) => {
        const stop = () => resolve();
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
      await sim.close();
    },
  );
}
