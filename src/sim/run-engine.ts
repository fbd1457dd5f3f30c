import { randomUUID } from 'node:crypto';
import { planStep, residuesFor, type PlannedTool } from './agent-script.js';
import type { SimClock } from './clock.js';
import type { CounterBook } from './counters.js';
import type { Chain, FileRecord, FileRef, RunRecord, SimEvent, ThreadRecord, ToolResult } from './records.js';
import { hashString } from './rng.js';
import { newCallId, newFileId, type SimStore } from './store.js';
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
}

/** What a new run starts from. */
export interface NewRun {
  account: string;
  thread: ThreadRecord;
  chain: Chain;
  step: number;
  parentId: string | null;
}

type Action = () => void;

/** How long a cancelled run stays `cancelling` before it is `cancelled`. */
const CANCEL_MS = 100;

/**
 * Moves runs through their scripted life on real timers: text deltas, tool events, files,
 * then the pause or final status, the assistant message and the final `run` event.
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
      text: '',
      toolResults: [],
      requiredAction: null,
      error: null,
      parentId: n.parentId,
      chain: n.chain,
      step: n.step,
      events: [],
      listeners: new Set(),
      answeredBy: null,
      pausedAt: null,
      progress: 0,
    };
    this.#d.store.runs.set(run.id, run);
    n.thread.runIds.push(run.id);
    n.thread.updatedAt = now;
    this.#d.counters.running(run.account, 1);
    this.#d.store.touch();
    this.#schedule(run, 0);
    return run;
  }

  /**
   * Carries on with a run restored from a snapshot: a running one from the step it had
   * reached (over the rest of its time), a cancelling one to `cancelled`.
   */
  resume(run: RunRecord): void {
    if (run.status === 'running') {
      this.#d.counters.running(run.account, 1);
      this.#schedule(run, run.progress);
    } else if (run.status === 'cancelling') {
      this.#d.timers.timeout(() => this.#finish(run, 'cancelled', {}), Math.min(CANCEL_MS, durationOf(run, this.#d)));
    }
  }

  #schedule(run: RunRecord, from: number): void {
    const plan = planStep(run.chain, run.step);
    const pieces = splitText(plan.text, plan.deltas);
    const fullText = pieces.length ? pieces.join('') : plan.text;
    const deltas: Action[] = pieces.map((piece) => () => {
      run.text += piece;
      this.#emit(run, 'text.delta', { text: piece });
    });
    const half = Math.ceil(deltas.length / 2);
    const [search, ...fileTools] = plan.tools;
    const actions: Action[] = [];
    if (search) actions.push(...this.#toolActions(run, search, () => deltas.slice(0, half)));
    else actions.push(...deltas.slice(0, half));
    for (const t of fileTools) actions.push(...this.#toolActions(run, t, () => []));
    actions.push(...deltas.slice(half));
    actions.push(() => {
      // With @deltas=0 the text arrives all at once, with the final state.
      run.text = fullText;
      if (plan.end.kind === 'pause') {
        this.#finish(run, 'requires_action', { requiredAction: { tool: plan.end.tool, input: plan.end.input } });
      } else if (plan.end.status === 'cancelling') {
        this.#leaveRunning(run, 'cancelling');
        this.#d.timers.timeout(() => this.#finish(run, 'cancelled', {}), durationOf(run, this.#d));
      } else {
        this.#finish(run, plan.end.status, { error: plan.end.error });
      }
    });
    const step = durationOf(run, this.#d) / actions.length;
    const t0 = performance.now() - from * step;
    // Each action is due at a fixed offset from the start: chaining relative timeouts added
    // every timer's lateness to the run (1000 ms runs took 1015-1100 ms).
    const next = (i: number): void => {
      this.#d.timers.timeout(() => {
        // A cancelled run does no more work.
        if (run.status !== 'running') return;
        actions[i]?.();
        run.progress = i + 1;
        if (i + 1 < actions.length) next(i + 1);
      }, t0 + (i + 1) * step - performance.now());
    };
    if (from < actions.length) next(from);
  }

  /**
   * Cancels a run: `running` → `cancelling` at once, `cancelled` shortly after (its work so
   * far kept). Returns false when the run is not running (already finished or cancelling).
   */
  cancel(run: RunRecord): boolean {
    if (run.status !== 'running') return false;
    this.#leaveRunning(run, 'cancelling');
    this.#d.store.touch();
    this.#d.timers.timeout(() => this.#finish(run, 'cancelled', {}), Math.min(CANCEL_MS, durationOf(run, this.#d)));
    return true;
  }

  #toolActions(run: RunRecord, t: PlannedTool, between: () => Action[]): Action[] {
    const callId = newCallId();
    return [
      () => this.#emit(run, 'tool.started', { tool: t.tool, call_id: callId }),
      ...between(),
      () => {
        run.toolResults.push(this.#toolResult(run, t, callId));
        this.#emit(run, 'tool.result', { tool: t.tool, status: 'succeeded', call_id: callId });
      },
    ];
  }

  #toolResult(run: RunRecord, t: PlannedTool, callId: string): ToolResult {
    const files: FileRef[] = [];
    let output: Record<string, unknown> = { ok: true, hits: 3, sources: ['PubMed', 'bioRxiv'] };
    if (t.file) {
      const residues = residuesFor(run.chain.script.question);
      const rec: FileRecord = {
        id: newFileId(),
        account: run.account,
        kind: t.file.kind,
        name: t.file.name,
        sizeBytes: run.chain.script.sizeBytes,
        residues,
        createdAt: this.#d.clock.now(),
      };
      this.#d.store.files.set(rec.id, rec);
      const ref: FileRef = { id: rec.id, role: t.file.role, url: `${this.#d.baseUrl()}/files/${rec.id}` };
      if (rec.name !== undefined) ref.name = rec.name;
      files.push(ref);
      output = fileToolOutput(t.file.kind, rec.id, residues);
    }
    return { type: 'tool_result', call_id: callId, tool: t.tool, status: 'succeeded', input: t.input, output, files };
  }

  #leaveRunning(run: RunRecord, status: string): void {
    if (run.status === 'running') this.#d.counters.running(run.account, -1);
    run.status = status;
  }

  #finish(run: RunRecord, status: string, extra: { requiredAction?: RunRecord['requiredAction']; error?: RunRecord['error'] }): void {
    this.#leaveRunning(run, status);
    run.requiredAction = extra.requiredAction ?? null;
    run.error = extra.error ?? null;
    run.completedAt = this.#d.clock.now();
    if (status === 'requires_action') run.pausedAt = performance.now();
    const thread = this.#d.store.threads.get(run.threadId);
    if (thread) {
      thread.messages.push({ id: randomUUID(), role: 'assistant', text: run.text, tool_results: structuredClone(run.toolResults) });
      thread.updatedAt = run.completedAt;
    }
    this.#emit(run, 'run', runView(run));
  }

  #emit(run: RunRecord, event: string, data: unknown): void {
    const e: SimEvent = { id: run.events.length, event, data };
    run.events.push(e);
    this.#d.store.touch();
    for (const l of [...run.listeners]) l(e);
  }
}

function durationOf(run: RunRecord, d: RunEngineDeps): number {
  return run.chain.script.durationMs ?? d.defaultDurationMs;
}

/** Splits text into `n` non-empty pieces on code-point boundaries (padding short text). */
export function splitText(text: string, n: number): string[] {
  if (n <= 0) return [];
  const chars = Array.from(text);
  while (chars.length < n) chars.push('.');
  const pieces: string[] = [];
  for (let i = 0; i < n; i++) {
    pieces.push(chars.slice(Math.floor((i * chars.length) / n), Math.floor(((i + 1) * chars.length) / n)).join(''));
  }
  return pieces;
}

function fileToolOutput(kind: FileRecord['kind'], fileId: string, residues: number): Record<string, unknown> {
  const h = hashString(fileId);
  switch (kind) {
    case 'pdb':
      return { ok: true, residues, meanPlddt: 70 + (h % 2500) / 100, structureId: fileId, model: 'sim-fold-1' };
    case 'png':
      return { ok: true, figure: fileId, width: 160, height: 120, format: 'png' };
    case 'csv':
      return { ok: true, table: fileId, rows: residues, columns: 3 };
    case 'md':
      return { ok: true, report: fileId, words: 120 + (h % 400) };
  }
}
