import type { PauseSpec, Script } from './directives.js';
import type { FileRecord, ModelRunRecord, SimEvent, ToolResult } from './records.js';
import type { SavedRun, SimSnapshot } from './snapshot-shape.js';

/** A run as a version 1 state file kept it: with its output, event log and parsed script. */
interface RunV1 extends Omit<SavedRun, 'chain' | 'progress' | 'callIds' | 'fileIds'> {
  text: string;
  toolResults: ToolResult[];
  events: SimEvent[];
  chain: { script: Script; answers: string[]; narrow: boolean; earlierMessages: number };
  progress?: number;
}

/** A thread as a version 1 state file kept it: with its transcript. */
interface ThreadV1 {
  id: string;
  account: string;
  title: string;
  seq: number;
  updatedAt: number;
  messages: { role: string; text: string }[];
  runIds: string[];
}

/** A version 1 state file (before runs were kept compact). */
export interface SnapshotV1 extends Omit<SimSnapshot, 'version' | 'runs' | 'threads'> {
  version: 1;
  runs: RunV1[];
  threads: ThreadV1[];
  files: FileRecord[];
  modelRuns: Omit<ModelRunRecord, 'done'>[];
}

/**
 * Converts a version 1 state file. A run keeps its ids, tool call ids and file ids; its
 * chain gets back the question as sent (from the thread's user message, or written again
 * from the script when the thread was deleted). Message ids of transcripts are derived anew.
 */
export function fromVersion1(v1: SnapshotV1): SimSnapshot {
  const inputs = new Map<string, string>();
  for (const t of v1.threads) {
    const users = t.messages.filter((m) => m.role === 'user');
    let u = 0;
    for (const id of t.runIds) {
      const r = v1.runs.find((x) => x.id === id);
      if (r && r.parentId === null && u < users.length) inputs.set(id, users[u++]!.text);
    }
  }
  const byId = new Map(v1.runs.map((r) => [r.id, r]));
  const inputOf = (r: Pick<RunV1, 'id' | 'parentId' | 'chain'>): string => {
    let root = r;
    for (let p = r.parentId; p !== null; ) {
      const parent = byId.get(p);
      if (!parent) break;
      root = parent;
      p = parent.parentId;
    }
    return inputs.get(root.id) ?? scriptInput(r.chain.script);
  };
  const runs: SavedRun[] = v1.runs.map(({ text: _t, toolResults, events, chain, progress, ...r }) => {
    const callIds = events.filter((e) => e.event === 'tool.started').map((e) => (e.data as { call_id: string }).call_id);
    const fileIds = toolResults.flatMap((t) => t.files.map((f) => f.id));
    const sent = events.filter((e) => e.event !== 'run').length;
    const finished = r.status !== 'running' && r.status !== 'cancelling';
    return {
      ...r,
      chain: { input: inputOf({ id: r.id, parentId: r.parentId, chain }), answers: chain.answers, narrow: chain.narrow, earlierMessages: chain.earlierMessages },
      progress: progress ?? sent + (finished && r.status !== 'cancelled' ? 1 : 0),
      callIds: callIds.length ? callIds : null,
      fileIds: fileIds.length ? fileIds : null,
    };
  });
  const threads = v1.threads.map(({ messages: _m, ...t }) => t);
  return { ...v1, version: 2, runs, threads };
}

/** Directives that parse back to `s` (for a question whose text was not kept). */
export function scriptInput(s: Script): string {
  const parts = s.question ? [s.question] : [];
  if (s.durationMs !== undefined) parts.push(`@duration=${s.durationMs}ms`);
  for (const p of s.pauses) parts.push(pauseDirective(p));
  if (s.files.length) parts.push(`@files=${s.files.map((f) => (f.named ? f.kind : `${f.kind}:noname`)).join(',')}`);
  if (s.filename !== undefined) parts.push(`@filename=${encodeURIComponent(s.filename)}`);
  if (s.sizeBytes !== undefined) parts.push(`@size=${s.sizeBytes}`);
  if (s.fail) parts.push('@fail');
  if (s.status !== undefined) parts.push(`@status=${s.status}`);
  if (s.deltas !== 4) parts.push(`@deltas=${s.deltas}`);
  if (!s.search) parts.push('@nosearch');
  return parts.join(' ');
}

function pauseDirective(p: PauseSpec): string {
  if ('unknown' in p) return `@tool=${p.tool}`;
  switch (p.tool) {
    case 'confirm_scope':
      return 'cost' in p && p.cost !== undefined ? `@confirm=${p.cost}` : '@confirm';
    case 'ask_choice':
      return 'allowMultiple' in p && p.allowMultiple ? '@choice=multi' : '@choice';
    case 'request_quality_image':
      return '@image';
    default:
      return `@tool=${(p as { tool: string }).tool}`;
  }
}
