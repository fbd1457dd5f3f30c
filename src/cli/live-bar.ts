import { createRequire } from 'node:module';
import type * as CliProgress from 'cli-progress';

// cli-progress (CommonJS) is required when a bar is made, i.e. on a TTY only: --json and piped
// runs never load it.
const require = createRequire(import.meta.url);

/** What a live bar needs on each update besides the done count. */
export type BarFields = Record<string, string | number>;

/** A cli-progress bar on a TTY that also works out the rate since it started. */
export interface LiveBar {
  readonly started: boolean;
  start(total: number, done: number, fields: BarFields): void;
  update(done: number, fields: BarFields, total?: number): void;
  stop(): void;
}

/**
 * A bar whose format ends in `| {rate}/s | ETA {eta_formatted}`; `fieldsFormat` is what goes
 * between the counts and the rate (e.g. `in flight {inFlight} | failed {failed}`).
 */
export function liveBar(stream: NodeJS.WriteStream, fieldsFormat: string): LiveBar {
  const cliProgress = require('cli-progress') as typeof CliProgress;
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: `{bar} {value}/{total} | ${fieldsFormat} | {rate}/s | ETA {eta_formatted}`,
      hideCursor: true,
      clearOnComplete: false,
      etaBuffer: 50,
      fps: 5,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  let t0 = Date.now();
  let done0 = 0;
  const rate = (done: number): string => {
    const secs = (Date.now() - t0) / 1000;
    return secs > 0 ? ((done - done0) / secs).toFixed(1) : '0.0';
  };
  return {
    get started() {
      return started;
    },
    start: (total, done, fields) => {
      t0 = Date.now();
      done0 = done;
      bar.start(total, done, { ...fields, rate: '0.0' });
      started = true;
    },
    update: (done, fields, total) => {
      if (!started) return;
      if (total !== undefined) bar.setTotal(total);
      bar.update(done, { ...fields, rate: rate(done) });
    },
    stop: () => {
      if (started) bar.stop();
    },
  };
}
