import { randomUUID } from 'node:crypto';
import { residuesFor, scriptOf } from './agent-script.js';
import type { SimClock } from './clock.js';
import type { CounterBook } from './counters.js';
import type { SimJournal } from './journal.js';
import type { Chain, FileRecord, RunRecord, SimEvent, ThreadRecord } from './records.js';
import { eventsOf, runState, stepEvent, timelineOfRun, type RunState } from './run-state.js';
import { timelineOf } from './run-timeline.js';
import { newFileId, type SimStore } from './store.js';
import type { TimerSet } from './timers.js';
import { runView } from './views.js';

/** What the engine needs from the simulator. */
export interface RunEngineDeps {
  store: SimStore;
  counters: CounterBook;
  clock: SimClock;
  timers: TimerSet;
  /** Base URL ending in /api/v1, for file URLs. */
  baseUrl: () => string;
  defaultDurationMs: number;
  /** Whether run objects carry their times (SimOptions.runTimes). @default true */
  runTimes?: boolean;
  /** Where changes that cannot be worked out again are written as they happen (with a state file). */
  journal?: SimJournal | null;
}

/** What a new run starts from. */
export interface NewRun {
  account: string;
  thread: ThreadRecord;
  chain: Chain;
  step: number;
  parentId: string | null;
}

/** How long a cancelled run stays `cancelling` before it is `cancelled`. */
const CANCEL_MS = 100;

/**
 * Moves runs through their timeline (run-timeline.ts) on one timer heap: text deltas, tool
 * events, files, then the pause or final status and the final `run` event. A run keeps only
 * how far it got; what it wrote and sent is worked out again when asked (run-state.ts).
 */
export class RunEngine {
  readonly #d: RunEngineDeps;

  constructor(deps: RunEngineDeps) {
    this.#d = deps;
  }

  /** Creates a run in status `running` and starts its work. */
  start(n: NewRun): RunRecord {
    const now = this.#d.clock.now();
    const run: RunRecord = {
      id: randomUUID(),
      account: n.account,
      threadId: n.thread.id,
      createdAt: now,
      completedAt: null,
      status: 'running',
      parentId: n.parentId,
      chain: n.chain,
      step: n.step,
      answeredBy: null,
      pausedAt: null,
      progress: 0,
      callIds: null,
      fileIds: null,
      live: null,
      listeners: null,
    };
    this.#d.store.runs.set(run.id, run);
    // A literal holds one element; push() would reserve room for seventeen.
    if (n.thread.runIds.length === 0) n.thread.runIds = [run.id];
    else n.thread.runIds.push(run.id);
    n.thread.updatedAt = now;
    this.#d.counters.running(run.account, 1);
    this.#d.store.touch();
    this.#schedule(run);
    return run;
  }

  /**
   * Carries on with a run restored from a snapshot: a running one from the step it had
   * reached (over the rest of its time), a cancelling one to `cancelled`.
   */
  resume(run: RunRecord): void {
    if (run.status === 'running') {
      this.#d.counters.running(run.account, 1);
      this.#schedule(run);
    } else if (run.status === 'cancelling') {
      this.#cancelLater(run, Math.min(CANCEL_MS, this.#durationOf(run)));
    }
  }

  /**
   * Cancels a run: `running` → `cancelling` at once, `cancelled` shortly after (its work so
   * far kept). Returns false when the run is not running (already finished or cancelling).
   */
  cancel(run: RunRecord): boolean {
    if (run.status !== 'running') return false;
    this.#leaveRunning(run, 'cancelling');
    this.#d.journal?.cancelled(run);
    this.#d.store.touch();
    this.#cancelLater(run, Math.min(CANCEL_MS, this.#durationOf(run)));
    return true;
  }

  /** What the run has written so far, its pause and error. */
  state(run: RunRecord): RunState {
    return runState(run, timelineOfRun(run), this.#d.baseUrl());
  }

  /** The run object as GET /runs/{id} gives it. */
  view(run: RunRecord): Record<string, unknown> {
    return runView(run, this.state(run), this.#d.runTimes ?? true);
  }

  /** Whether the run sent its final `run` event (no longer running nor cancelling). */
  isFinished(run: RunRecord): boolean {
    return run.status !== 'running' && run.status !== 'cancelling';
  }

  /** The events the run has sent so far (with the final `run` event once finished). */
  events(run: RunRecord): SimEvent[] {
    return eventsOf(run, timelineOfRun(run), this.isFinished(run) ? () => this.view(run) : null);
  }

  /** Calls `fn` with every event the run sends from now on; returns the unsubscribe. */
  follow(run: RunRecord, fn: (e: SimEvent) => void): () => void {
    (run.listeners ??= new Set()).add(fn);
    return () => {
      run.listeners?.delete(fn);
      if (run.listeners?.size === 0) run.listeners = null;
    };
  }

  #schedule(run: RunRecord): void {
    const tl = (run.live ??= timelineOf(run.chain, run.step));
    const stepMs = this.#durationOf(run) / tl.steps.length;
    // Each step is due at a fixed offset from the start: chained relative timeouts would add
    // every timer's lateness to the run's length.
    const t0 = performance.now() - run.progress * stepMs;
    const tick = (): void => {
      // A cancelled run does no more work.
      if (run.status !== 'running') return;
      this.#step(run);
      if (run.status === 'running' && run.progress < tl.steps.length) this.#d.timers.at(t0 + (run.progress + 1) * stepMs, tick);
    };
    if (run.progress < tl.steps.length) this.#d.timers.at(t0 + (run.progress + 1) * stepMs, tick);
  }

  #step(run: RunRecord): void {
    const tl = run.live!;
    const i = run.progress;
    const s = tl.steps[i]!;
    run.progress = i + 1;
    if (s.kind === 'result') {
      const t = tl.plan.tools[s.tool]!;
      if (t.file) this.#makeFile(run, t.file, tl.script.sizeBytes, residuesFor(tl.script.question));
    }
    if (s.kind !== 'end') {
      this.#d.store.touch();
      if (run.listeners) this.#send(run, stepEvent(run, tl, i)!);
      return;
    }
    const end = tl.plan.end;
    if (end.kind === 'pause') this.#finish(run, 'requires_action');
    else if (end.status === 'cancelling') {
      this.#leaveRunning(run, 'cancelling');
      this.#d.store.touch();
      this.#cancelLater(run, this.#durationOf(run));
    } else this.#finish(run, end.status);
  }

  #makeFile(run: RunRecord, f: { kind: FileRecord['kind']; name: string | undefined }, sizeBytes: number | undefined, residues: number): void {
    const rec: FileRecord = {
      id: newFileId(),
      account: run.account,
      kind: f.kind,
      name: f.name,
      sizeBytes,
      residues,
      createdAt: this.#d.clock.now(),
    };
    this.#d.store.files.set(rec.id, rec);
    const ids = (run.fileIds ??= []);
    ids.push(rec.id);
    // Its id is in what the run shows from now on: it must outlive a kill.
    this.#d.journal?.fileMade(run, ids.length - 1, rec);
  }

  #cancelLater(run: RunRecord, ms: number): void {
    this.#d.timers.at(performance.now() + ms, () => {
      if (run.status === 'cancelling') this.#finish(run, 'cancelled');
    });
  }

  #leaveRunning(run: RunRecord, status: string): void {
    if (run.status === 'running') this.#d.counters.running(run.account, -1);
    run.status = status;
  }

  #finish(run: RunRecord, status: string): void {
    this.#leaveRunning(run, status);
    run.completedAt = this.#d.clock.now();
    if (status === 'requires_action') run.pausedAt = performance.now();
    const thread = this.#d.store.threads.get(run.threadId);
    if (thread) thread.updatedAt = run.completedAt;
    // A pause is answered and a final status read: neither may go back to running after a kill.
    this.#d.journal?.ended(run);
    this.#d.store.touch();
    if (run.listeners) {
      const steps = timelineOfRun(run).steps.length;
      this.#send(run, { id: Math.min(run.progress, steps - 1), event: 'run', data: this.view(run) });
    }
    // What the run wrote is worked out again from its chain when asked: drop the timeline.
    run.live = null;
    run.listeners = null;
  }

  #send(run: RunRecord, e: SimEvent): void {
    const ls = run.listeners;
    if (!ls) return;
    if (ls.size === 1) for (const l of ls) l(e);
    else for (const l of [...ls]) l(e);
  }

  #durationOf(run: RunRecord): number {
    return (run.live?.script ?? scriptOf(run.chain)).durationMs ?? this.#d.defaultDurationMs;
  }
}
