import { startSim } from './server.js';
import type { Sim, SimOptions } from './types.js';

/** Port `resq sim` listens on when none is given. */
export const DEFAULT_SIM_PORT = 8787;

/** Options of {@link serveSim}. */
export interface ServeSimOptions extends SimOptions {
  /** Closes the simulator when aborted (e.g. from the command's SIGINT handler). */
  signal?: AbortSignal;
}

/**
 * Starts the simulator for `resq sim --port N`: {@link startSim} on port 8787 unless told
 * otherwise, closed when `signal` aborts. Prints nothing: the command prints `sim.url`
 * and `sim.keys`.
 * @default port 8787
 */
export async function serveSim(opts: ServeSimOptions = {}): Promise<Sim> {
  const { signal, ...simOpts } = opts;
  const sim = await startSim({ port: DEFAULT_SIM_PORT, ...simOpts });
  if (signal) {
    if (signal.aborted) await sim.close();
    else signal.addEventListener('abort', () => void sim.close(), { once: true });
  }
  return sim;
}
