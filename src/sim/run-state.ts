import { residuesFor, type PlannedTool } from './agent-script.js';
import type { FileKind } from './directives.js';
import { derivedCallId } from './ids.js';
import type { FileRef, RunRecord, SimEvent, ToolResult } from './records.js';
import { hashString } from './rng.js';
import { textAt, timelineOf, type Timeline } from './run-timeline.js';

/** What a run has written and where it stands, worked out from its record and timeline. */
export interface RunState {
  text: string;
  toolResults: ToolResult[];
  requiredAction: { tool: string; input: Record<string, unknown> } | null;
  error: { code: string; message: string } | null;
}

/** The run's timeline: the live one while it runs, else built again. */
export function timelineOfRun(run: RunRecord): Timeline {
  return run.live ?? timelineOf(run.chain, run.step);
}

/** The id of the run's tool call number `tool`. */
export function callIdOf(run: RunRecord, tool: number): string {
  return run.callIds?.[tool] ?? derivedCallId(run.id, tool);
}

/** The run's text, tool results, pause and error after its `progress` steps. */
export function runState(run: RunRecord, tl: Timeline, baseUrl: string): RunState {
  const done = Math.min(run.progress, tl.steps.length);
  const toolResults: ToolResult[] = [];
  for (let i = 0; i < done; i++) {
    const s = tl.steps[i]!;
    if (s.kind === 'result') toolResults.push(toolResultOf(run, tl, s.tool, baseUrl));
  }
  const ended = done === tl.steps.length;
  const end = tl.plan.end;
  return {
    text: textAt(tl, done),
    toolResults,
    requiredAction: ended && end.kind === 'pause' && run.status === 'requires_action' ? { tool: end.tool, input: end.input } : null,
    error: ended && end.kind === 'final' && end.error && run.status === end.status ? { ...end.error } : null,
  };
}

/** The tool-result envelope of the run's tool number `tool` (once it finished). */
export function toolResultOf(run: RunRecord, tl: Timeline, tool: number, baseUrl: string): ToolResult {
  const t = tl.plan.tools[tool]!;
  const callId = callIdOf(run, tool);
  const fileId = t.file ? run.fileIds?.[tl.fileIndex[tool]!] : undefined;
  if (!t.file || fileId === undefined) {
    return { type: 'tool_result', call_id: callId, tool: t.tool, status: 'succeeded', input: t.input, output: searchOutput(), files: [] };
  }
  const ref: FileRef = { id: fileId, role: t.file.role, url: `${baseUrl}/files/${fileId}` };
  if (t.file.name !== undefined) ref.name = t.file.name;
  const output = fileToolOutput(t.file.kind, fileId, residuesFor(tl.script.question));
  return { type: 'tool_result', call_id: callId, tool: t.tool, status: 'succeeded', input: t.input, output, files: [ref] };
}

/**
 * The events the run has sent so far, in order: one per step done but the end (the event
 * of step i has id i), then, once it finished, the `run` event with `finalView`.
 */
export function eventsOf(run: RunRecord, tl: Timeline, finalView: (() => unknown) | null): SimEvent[] {
  const done = Math.min(run.progress, tl.steps.length);
  const events: SimEvent[] = [];
  for (let i = 0; i < done; i++) {
    const e = stepEvent(run, tl, i);
    if (e) events.push(e);
  }
  if (finalView) events.push({ id: events.length, event: 'run', data: finalView() });
  return events;
}

/** The event step `i` of the run sends, or null for the end (its event is the `run` one). */
export function stepEvent(run: RunRecord, tl: Timeline, i: number): SimEvent | null {
  const s = tl.steps[i]!;
  switch (s.kind) {
    case 'started':
      return { id: i, event: 'tool.started', data: { tool: toolName(tl, s.tool), call_id: callIdOf(run, s.tool) } };
    case 'delta':
      return { id: i, event: 'text.delta', data: { text: tl.pieces[s.piece] } };
    case 'result':
      return { id: i, event: 'tool.result', data: { tool: toolName(tl, s.tool), status: 'succeeded', call_id: callIdOf(run, s.tool) } };
    case 'end':
      return null;
  }
}

function toolName(tl: Timeline, tool: number): string {
  return (tl.plan.tools[tool] as PlannedTool).tool;
}

function searchOutput(): Record<string, unknown> {
  return { ok: true, hits: 3, sources: ['PubMed', 'bioRxiv'] };
}

function fileToolOutput(kind: FileKind, fileId: string, residues: number): Record<string, unknown> {
  const h = hashString(fileId);
  switch (kind) {
    case 'pdb':
      return { ok: true, residues, meanPlddt: 70 + (h % 2500) / 100, structureId: fileId, model: 'sim-fold-1' };
    case 'png':
      return { ok: true, figure: fileId, width: 160, height: 120, format: 'png' };
    case 'csv':
      return { ok: true, table: fileId, rows: residues, columns: 3 };
    case 'md':
    case 'html':
      return { ok: true, report: fileId, words: 120 + (h % 400) };
    case 'svg':
      return { ok: true, figure: fileId, format: 'svg' };
  }
}
