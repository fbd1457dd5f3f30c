import { isoNow } from '../clock.js';
import { type ItemState, TERMINAL_STATES } from '../store/item-states.js';
import type { RunnerEvent, StateCounts } from '../runner/index.js';
import type { AlongsideEvent } from '../score/judge-alongside.js';
import { escapeControls } from '../text/escape-text.js';
import type { CliIo } from './io.js';
import { liveBar } from './live-bar.js';

/** The bar's fields after done/total, by name (see {@link ProgressKind.barFormat}). */
type Fields = Record<string, number>;

/** What one event means for the display, whatever kind of batch sent it. */
export type ProgressStep =
  /** The batch starts: the bar begins; `line` says what it starts from (above the bar only when `aboveBar`). */
  | { kind: 'start'; line: string; aboveBar: boolean; total: number; done: number; fields: Fields }
  /** The bar moves. */
  | { kind: 'bar'; done: number; fields: Fields; total?: number; rate?: { perS: number | null; etaS: number | null } }
  /** Said as it happens (above the bar). */
  | { kind: 'notice'; line: string }
  /** Kept for below the bar (said at once without one). */
  | { kind: 'problem'; line: string }
  /** Said only without a bar (the bar shows it otherwise, or it would be noise). */
  | { kind: 'detail'; line: string }
  /** The work moves on to its next stage (an agent judge's judgings once the answers are over): the bar ends, `line` is said, a new bar of `format` begins. */
  | { kind: 'phase'; line: string; format: string; total: number; done: number };

/** How a kind of batch (agent runs, model runs) reads its events for the one renderer. */
export interface ProgressKind<E> {
  /** The bar's fields, e.g. `in flight {inFlight} | failed {failed}`. */
  barFormat: string;
  /** What an event means for the display; null for events it does not show. */
  read(e: E): ProgressStep | null;
}

/** Renders a batch's events: a live bar on a TTY, JSON lines with --json, a few plain lines otherwise. */
export interface ProgressRenderer<E = RunEvent> {
  onEvent(e: E): void;
  /** A line for the person (e.g. "stopping: …") that must not be drawn over by the bar. */
  note(line: string): void;
  stop(): void;
}

/** Items (or rows) finished for good: the done of done/total. */
export function done(c: Readonly<Record<ItemState, number>>): number {
  let n = 0;
  for (const s of TERMINAL_STATES) n += c[s];
  return n;
}

/** Items in flight as the store counts them (what the summary says), not this worker's requests. */
function inFlightOf(c: StateCounts): number {
  return c.submitting + c.running + c.waiting;
}

type Peer = { host: string; pid: number };

/** `2 other workers (pid 123 on host a, pid 456 on host b)`. */
export function describeWorkers(ws: readonly Peer[]): string {
  const list = ws.slice(0, 5).map((w) => `pid ${w.pid} on host ${w.host}`).join(', ');
  return `${ws.length} other worker${ws.length === 1 ? '' : 's'} (${list}${ws.length > 5 ? ', …' : ''})`;
}

/** The one line said when the concurrency needs more open files than the process may hold. */
export function descriptorLine(e: { concurrency: number; needed: number; limit: number; runs: number }): string {
  const n = (x: number): string => x.toLocaleString('en-US');
  return `notice: --concurrency ${n(e.concurrency)} needs about ${n(e.needed)} open files; this process may open ${n(e.limit)}: running ${n(e.runs)} at once; to run them all, raise it before resq: ulimit -n ${e.needed}`;
}

/** What a run of an agent batch reports: its runner's events, and its agent judge's progress. */
export type RunEvent = RunnerEvent | AlongsideEvent;

/** `judging with the agent: 3 of 10 judgings to go (batch q.judge)`. */
export function judgingToGo(e: { done: number; total: number; batch: string }): string {
  return `judging with the agent: ${e.total - e.done} of ${e.total} judging${e.total === 1 ? '' : 's'} to go (batch ${escapeControls(e.batch)})`;
}

/**
 * Agent-run batches: in flight, held, failed; other workers as notices; cap moves in plain
 * output; judgings left once the answers are over as a bar of their own.
 */
export function agentProgress(): ProgressKind<RunEvent> {
  let batch = '';
  let answersOver = false;
  let judgingShown = false;
  const fields = (c: StateCounts, inFlight: number): Fields => ({ inFlight, held: c.held, failed: c.failed + c.error });
  return {
    barFormat: 'in flight {inFlight} | held {held} | failed {failed}',
    read(e) {
      switch (e.type) {
        case 'start': {
          batch = e.batch;
          const line = `batch ${e.batch}: ${e.total} item${e.total === 1 ? '' : 's'}, ${done(e.counts)} already finished, ${e.resumed} re-attached`;
          // A resume (or a run of a batch under way) says what it starts from above the bar too.
          return { kind: 'start', line, aboveBar: done(e.counts) > 0 || e.resumed > 0, total: e.total, done: done(e.counts), fields: fields(e.counts, e.resumed) };
        }
        case 'progress':
          return { kind: 'bar', done: done(e.counts), fields: fields(e.counts, e.inFlight), total: e.total, rate: { perS: e.ratePerS, etaS: e.etaS } };
        // After a stop the runs still going at the service are in flight, as the summary says.
        case 'end':
          answersOver = true;
          return { kind: 'bar', done: done(e.counts), fields: fields(e.counts, inFlightOf(e.counts)) };
        case 'joined':
          return e.others.length > 0 ? { kind: 'notice', line: `notice: joining batch ${batch}: ${describeWorkers(e.others)}` } : null;
        case 'waiting':
          return { kind: 'notice', line: `notice: nothing left to claim: waiting for ${describeWorkers(e.workers)} with ${e.inFlight} items in flight (--no-wait to leave now)` };
        case 'warning':
          return { kind: 'problem', line: `warning: ${e.message}` };
        case 'cap':
          return { kind: 'detail', line: `in-flight cap now ${e.cap} (${e.reason})` };
        case 'descriptors':
          return { kind: 'notice', line: descriptorLine(e) };
        // While answers run, judgings keep pace with them; what is left after is long work of its own.
        case 'judging':
          if (judgingShown) return { kind: 'bar', done: e.done, total: e.total, fields: {} };
          if (!answersOver || e.done >= e.total) return null;
          judgingShown = true;
          return { kind: 'phase', line: judgingToGo(e), format: 'judgings', total: e.total, done: e.done };
        default:
          return null;
      }
    },
  };
}

/**
 * One JSON object per event line on stdout. The lines of one turn (a write group's commit
 * settles many transitions in one go) go out as one write when that turn's microtasks are
 * done: stdout to a file is a write(2) per call, three per run. Nothing waits for a timer,
 * so a reader sees each line as soon as before; a note or the stop writes what is pending
 * first, so the order on the terminal is kept.
 */
export function jsonRenderer<E extends object = RunnerEvent>(out: NodeJS.WritableStream, err: NodeJS.WritableStream): ProgressRenderer<E> {
  let pending = '';
  const flush = (): void => {
    if (pending === '') return;
    const text = pending;
    pending = '';
    out.write(text);
  };
  return {
    onEvent: (e) => {
      if (pending === '') queueMicrotask(flush);
      pending += `${JSON.stringify({ ...e, at: isoNow() })}\n`;
    },
    note: (line) => {
      flush();
      err.write(`${line}\n`);
    },
    stop: flush,
  };
}

/** A live bar on stderr: done/total and the kind's fields, rate, ETA; notices above it, problems below it. */
export function barRenderer<E = RunEvent>(stream: NodeJS.WritableStream, columns: number, kind: ProgressKind<E> = agentProgress() as ProgressKind<E>): ProgressRenderer<E> {
  let bar = liveBar(stream, kind.barFormat, columns);
  const problems: string[] = [];
  return {
    onEvent: (e) => {
      const s = kind.read(e);
      if (!s) return;
      if (s.kind === 'start') {
        if (s.aboveBar) bar.note(s.line);
        bar.start(s.total, s.done, s.fields);
      } else if (s.kind === 'bar') bar.update(s.done, s.fields, s.total, s.rate);
      else if (s.kind === 'phase') {
        bar.stop();
        bar = liveBar(stream, s.format, columns);
        bar.note(s.line);
        bar.start(s.total, s.done, {});
      } else if (s.kind === 'notice') bar.note(s.line);
      else if (s.kind === 'problem') problems.push(s.line);
    },
    note: (line) => bar.note(line),
    stop: () => {
      bar.stop();
      for (const p of problems) stream.write(`${p}\n`);
    },
  };
}

/** Not a TTY and no --json: what the batch starts from, notices, problems, and nothing per item. */
export function plainRenderer<E = RunEvent>(stream: NodeJS.WritableStream, kind: ProgressKind<E> = agentProgress() as ProgressKind<E>): ProgressRenderer<E> {
  return {
    onEvent: (e) => {
      const s = kind.read(e);
      if (s && s.kind !== 'bar') stream.write(`${s.line}\n`);
    },
    note: (line) => stream.write(`${line}\n`),
    stop: () => {},
  };
}

/** Picks the renderer for this terminal and flags; agent runs unless another kind is given. */
export function pickRenderer<E extends object = RunEvent>(json: boolean, io: CliIo, kind: ProgressKind<E> = agentProgress() as ProgressKind<E>): ProgressRenderer<E> {
  if (json) return jsonRenderer<E>(io.stdout, io.stderr);
  if (io.isTTY) return barRenderer(io.stderr, io.columns, kind);
  return plainRenderer(io.stderr, kind);
}
