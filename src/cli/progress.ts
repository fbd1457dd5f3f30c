import type { RunnerEvent, StateCounts } from '../runner/index.js';
import type { CliIo } from './io.js';
import { liveBar } from './live-bar.js';

/** Renders runner events: a live bar on a TTY, JSON lines with --json, a few plain lines otherwise. */
export interface ProgressRenderer {
  onEvent(e: RunnerEvent): void;
  /** A line for the person (e.g. "stopping: …") that must not be drawn over by the bar. */
  note(line: string): void;
  stop(): void;
}

function done(c: StateCounts): number {
  return c.completed + c.failed + c.error + c.cancelled;
}

type Peer = { host: string; pid: number };

/** `2 other workers (pid 123 on host a, pid 456 on host b)`. */
export function describeWorkers(ws: readonly Peer[]): string {
  const list = ws.slice(0, 5).map((w) => `pid ${w.pid} on host ${w.host}`).join(', ');
  return `${ws.length} other worker${ws.length === 1 ? '' : 's'} (${list}${ws.length > 5 ? ', …' : ''})`;
}

/** The lines about other workers (notices, not warnings), or null for events that are not about them. */
function workerLine(e: RunnerEvent, batch: string): string | null {
  if (e.type === 'joined' && e.others.length > 0) return `notice: joining batch ${batch}: ${describeWorkers(e.others)}`;
  if (e.type === 'waiting') return `notice: nothing left to claim: waiting for ${describeWorkers(e.workers)} with ${e.inFlight} items in flight (--no-wait to leave now)`;
  return null;
}

/** `batch b: 40 items, 12 already finished, 3 re-attached`: what a run or resume starts from. */
function startLine(e: Extract<RunnerEvent, { type: 'start' }>): string {
  return `batch ${e.batch}: ${e.total} item${e.total === 1 ? '' : 's'}, ${done(e.counts)} already finished, ${e.resumed} re-attached`;
}

/** Items in flight as the store counts them (what the summary says), not this worker's requests. */
function inFlightOf(c: StateCounts): number {
  return c.submitting + c.running + c.waiting;
}

/** One JSON object per event line on stdout. */
export function jsonRenderer(out: NodeJS.WritableStream, err: NodeJS.WritableStream): ProgressRenderer {
  return {
    onEvent: (e) => out.write(`${JSON.stringify({ ...e, at: new Date().toISOString() })}\n`),
    note: (line) => err.write(`${line}\n`),
    stop: () => {},
  };
}

/** A live bar on stderr: done/total, in flight, held, failed, rate, ETA. */
export function barRenderer(stream: NodeJS.WritableStream, columns: number): ProgressRenderer {
  const bar = liveBar(stream, 'in flight {inFlight} | held {held} | failed {failed}', columns);
  const warnings: string[] = [];
  const fields = (c: StateCounts, inFlight: number) => ({ inFlight, held: c.held, failed: c.failed + c.error });
  let batch = '';
  return {
    onEvent: (e) => {
      // Notices about other workers go above the bar as they happen; warnings are kept for below it.
      const line = workerLine(e, batch);
      if (line) bar.note(line);
      if (e.type === 'start') {
        batch = e.batch;
        // A resume (or a run of a batch under way) says what it starts from: finished, re-attached.
        if (done(e.counts) > 0 || e.resumed > 0) bar.note(startLine(e));
        bar.start(e.total, done(e.counts), fields(e.counts, e.resumed));
      }
      else if (e.type === 'progress') bar.update(done(e.counts), fields(e.counts, e.inFlight), e.total);
      else if (e.type === 'warning') warnings.push(e.message);
      // After a stop the runs still going at the service are in flight, as the summary says.
      else if (e.type === 'end') bar.update(done(e.counts), fields(e.counts, inFlightOf(e.counts)));
    },
    note: (line) => bar.note(line),
    stop: () => {
      bar.stop();
      for (const w of warnings) stream.write(`warning: ${w}\n`);
    },
  };
}

/** Not a TTY and no --json: a line at start, warnings, and nothing per item. */
export function plainRenderer(stream: NodeJS.WritableStream): ProgressRenderer {
  let batch = '';
  return {
    onEvent: (e) => {
      const line = workerLine(e, batch);
      if (line) stream.write(`${line}\n`);
      if (e.type === 'start') batch = e.batch;
      if (e.type === 'start') stream.write(`${startLine(e)}\n`);
      else if (e.type === 'warning') stream.write(`warning: ${e.message}\n`);
      else if (e.type === 'cap') stream.write(`in-flight cap now ${e.cap} (${e.reason})\n`);
    },
    note: (line) => stream.write(`${line}\n`),
    stop: () => {},
  };
}

/** Picks the renderer for this terminal and flags. */
export function pickRenderer(json: boolean, io: CliIo): ProgressRenderer {
  if (json) return jsonRenderer(io.stdout, io.stderr);
  if (io.isTTY) return barRenderer(io.stderr, io.columns);
  return plainRenderer(io.stderr);
}
