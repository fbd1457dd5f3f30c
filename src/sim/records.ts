import type { FileKind, Script } from './directives.js';

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
}

/** What a chain of runs (first run plus one per respond) carries from run to run. */
export interface Chain {
  script: Script;
  /** One line per answer received, e.g. `ask_choice: chosen b`. */
  answers: string[];
  /** Set by a declined confirm_scope: the next run is the last and gives the narrow answer. */
  narrow: boolean;
  /** Messages the thread held before the chain's first run. */
  earlierMessages: number;
}

/** A research run. */
export interface RunRecord {
  id: string;
  account: string;
  threadId: string;
  createdAt: number;
  completedAt: number | null;
  status: string;
  text: string;
  toolResults: ToolResult[];
  requiredAction: { tool: string; input: Record<string, unknown> } | null;
  error: { code: string; message: string } | null;
  parentId: string | null;
  chain: Chain;
  /** Index of this run in its chain: which pause (if any) it ends with. */
  step: number;
  events: SimEvent[];
  /** Live event streams following the run. */
  listeners: Set<(e: SimEvent) => void>;
  /** Id of the run a respond created from this one. */
  answeredBy: string | null;
  /** performance.now() when the run paused (`requires_action`), for the pause latency counter. */
  pausedAt: number | null;
  /** Steps of its scripted work done so far: where a restored run carries on. */
  progress: number;
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
  messages: Message[];
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
