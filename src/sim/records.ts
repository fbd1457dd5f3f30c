import type { FileKind } from './directives.js';
import type { Chain } from './chain.js';
import type { Timeline } from './run-timeline.js';

/** A file reference as it appears in tool results and model outputs. */
export interface FileRef {
  id: string;
  role: string;
  url: string;
  name?: string;
}

/** The tool-result envelope of the spec. */
export interface ToolResult {
  type: 'tool_result';
  call_id: string;
  tool: string;
  status: string;
  input: Record<string, unknown>;
  output: Record<string, unknown>;
  files: FileRef[];
}

/** One event of a run's log; ids count from 0 per run. */
export interface SimEvent {
  id: number;
  event: string;
  data: unknown;
  /** The event as SSE text, made once however many streams send it. */
  chunk?: string;
}

/**
 * A research run. Only what cannot be worked out again is kept: its text, tool results,
 * pause, error and event log follow from its chain, step and progress (see run-state.ts),
 * so a finished run costs a few hundred bytes.
 */
export interface RunRecord {
  id: string;
  account: string;
  threadId: string;
  createdAt: number;
  completedAt: number | null;
  status: string;
  parentId: string | null;
  chain: Chain;
  /** Index of this run in its chain: which pause (if any) it ends with. */
  step: number;
  /** Id of the run a respond created from this one. */
  answeredBy: string | null;
  /** performance.now() when the run paused (`requires_action`), for the pause latency counter. */
  pausedAt: number | null;
  /** Steps of its timeline done so far: what it has written, and where a restored run carries on. */
  progress: number;
  /** Ids of its tool calls when they are not the ones derived from the run id (runs restored from a version 1 state file). */
  callIds: string[] | null;
  /** Ids of the files it made, in the order of its file tools; null before the first. */
  fileIds: string[] | null;
  /** The timeline while the run is going; null once finished (rebuilt on demand). */
  live: Timeline | null;
  /** Live event streams following the run; null when none does. */
  listeners: Set<(e: SimEvent) => void> | null;
}

/** A message of a thread's transcript. */
export interface Message {
  id: string;
  role: 'user' | 'assistant';
  text: string;
  tool_results: ToolResult[];
}

/** A thread (conversation). */
export interface ThreadRecord {
  id: string;
  account: string;
  title: string;
  /** Creation order, to break ties between equal timestamps. */
  seq: number;
  updatedAt: number;
  /**
   * Its runs in order. The transcript follows from them: a run made by POST /runs adds the
   * user's message, a finished run the assistant's (see thread-messages.ts).
   */
  runIds: string[];
}

/** A file some run or model run made. Its bytes are generated when fetched. */
export interface FileRecord {
  id: string;
  account: string;
  kind: FileKind;
  name: string | undefined;
  /** Exact size in bytes when the question asked for one (`@size`). */
  sizeBytes: number | undefined;
  /** Residues of a structure file. */
  residues: number;
  createdAt: number;
}

/** A direct model run. */
export interface ModelRunRecord {
  id: string;
  account: string;
  modelId: string;
  createdAt: number;
  status: string;
  outputs: Record<string, unknown> | null;
  error: string | null;
  credits: number | null;
  pollUrl: string | null;
  pageUrl: string;
  /** The checked inputs, so a restored job can finish. */
  inputs: Record<string, unknown>;
  /** Resolves when the job is no longer running. */
  done: Promise<void>;
}
