import cliProgress from 'cli-progress';
import type { RunnerEvent, StateCounts } from '../runner/index.js';

/** Renders runner events: a live bar on a TTY, JSON lines with --json, a few plain lines otherwise. */
export interface ProgressRenderer {
  onEvent(e: RunnerEvent): void;
  stop(): void;
}

function done(c: StateCounts): number {
  return c.completed + c.failed + c.error;
}

/** One JSON object per event line on stdout. */
export function jsonRenderer(out: NodeJS.WritableStream = process.stdout): ProgressRenderer {
  return {
    onEvent: (e) => out.write(`${JSON.stringify({ ...e, at: new Date().toISOString() })}\n`),
    stop: () => {},
  };
}

/** A live bar on stderr: done/total, in flight, held, failed, rate, ETA. */
export function barRenderer(stream: NodeJS.WriteStream = process.stderr): ProgressRenderer {
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format:
        '{bar} {value}/{total} | in flight {inFlight} | held {held} | failed {failed} | {rate}/s | ETA {eta_formatted}',
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
  const warnings: string[] = [];
  const payload = (c: StateCounts, inFlight: number) => {
    const secs = (Date.now() - t0) / 1000;
    return {
      inFlight,
      held: c.held,
      failed: c.failed + c.error,
      rate: secs > 0 ? ((done(c) - done0) / secs).toFixed(1) : '0.0',
    };
  };
  return {
    onEvent: (e) => {
      if (e.type === 'start') {
        t0 = Date.now();
        done0 = done(e.counts);
        bar.start(e.total, done(e.counts), payload(e.counts, 0));
        started = true;
      } else if (e.type === 'progress' && started) {
        bar.setTotal(e.total);
        bar.update(done(e.counts), payload(e.counts, e.inFlight));
      } else if (e.type === 'warning') warnings.push(e.message);
      else if (e.type === 'end' && started) {
        bar.update(done(e.counts), payload(e.counts, 0));
      }
    },
    stop: () => {
      if (started) bar.stop();
      for (const w of warnings) stream.write(`warning: ${w}\n`);
    },
  };
}

/** Not a TTY and no --json: a line at start, warnings, and nothing per item. */
export function plainRenderer(stream: NodeJS.WritableStream = process.stderr): ProgressRenderer {
  return {
    onEvent: (e) => {
      if (e.type === 'start')
        stream.write(`batch ${e.batch}: ${e.total} items, ${done(e.counts)} already finished, ${e.resumed} re-attached\n`);
      else if (e.type === 'warning') stream.write(`warning: ${e.message}\n`);
      else if (e.type === 'cap') stream.write(`in-flight cap now ${e.cap} (${e.reason})\n`);
    },
    stop: () => {},
  };
}

/** Picks the renderer for this terminal and flags. */
export function pickRenderer(json: boolean): ProgressRenderer {
  if (json) return jsonRenderer();
  if (process.stderr.isTTY) return barRenderer();
  return plainRenderer();
}
