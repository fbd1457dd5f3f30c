import type { InputProblem } from '../errors.js';
import type { ItemState } from './item-states.js';
import type { NotifySettings } from './notify-settings.js';
import type { ScorerSpec } from '../score/types.js';

export type { NotifySettings } from './notify-settings.js';

export { DEFAULT_DOWNLOAD_CONCURRENCY } from './settings-defaults.js';
export { ACTIVE_STATES, ITEM_STATES, TERMINAL_STATES, UNFINISHED_STATES, isTerminal, type ItemState } from './item-states.js';

/** Settings a batch was started with; `resume` reuses them. */
export interface BatchSettings {
  concurrency: number;
  follow: 'sse' | 'poll';
  download: { enabled: boolean; concurrency: number; out: string | null };
  pipelineFile: string | null;
  service: 'sim' | 'url';
  /** Where `resq cancel` cancels a run (`{id}` for its id); absent: the client's default. */
  cancelRoute?: string | null;
  /** Who the batch tells (notifications), or absent: nobody. */
  notify?: NotifySettings;
  /**
   * The scorers every worker judges each item with as it completes (`--score`); absent: none.
   * A `command` scorer runs only in a process whose own command line gave it (never from here).
   */
  scorers?: ScorerSpec[];
  /** This batch judges another (the agent judge's companion batch, `<name>.judge`): that batch's id; absent: an ordinary batch. */
  judgeOf?: string;
}

export interface BatchRecord {
  id: string;
  name: string;
  kind: 'runs' | 'models';
  sourcePath: string;
  sourceSha256: string;
  baseUrl: string | null;
  settings: BatchSettings;
  policy: unknown;
  totalItems: number;
  invalidRows: InputProblem[];
  createdAt: string;
  updatedAt: string;
  /** When `resq cancel` stopped the batch, or null. */
  cancelledAt: string | null;
}

/** A process working a batch. */
export interface WorkerRecord {
  id: string;
  batchId: string;
  host: string;
  pid: number;
  /**
   * The start identity of its process on its host (on Linux the boot id and the process's
   * start time), telling its pid apart from the same pid reused later; null when unknown.
   */
  pidStart: string | null;
  startedAt: string;
  /** Last heartbeat (ms since the epoch). */
  heartbeatAt: number;
  /** Items it holds a lease on. */
  items: number;
}

/** What a worker registers with: its host, its pid, and its process's start identity when known. */
export interface WorkerStart {
  host: string;
  pid: number;
  pidStart?: string | null;
}

export interface ItemRecord {
  batchId: string;
  id: string;
  seq: number;
  line: number;
  question: string;
  threadKey: string | null;
  meta: Record<string, unknown>;
  /** The expected answer the question set gave (`expected`: a string, a number or an object), kept apart from meta; null when none. */
  expected: unknown;
  state: ItemState;
  step: number;
  pendingKey: string | null;
  pendingAnswer: Record<string, unknown> | null;
  runId: string | null;
  threadId: string | null;
  runStatus: string | null;
  text: string | null;
  /** Why the item failed or errored: the service's own message, verbatim (untrusted text). */
  error: string | null;
  /** The service's error code for a failed run (`agent_error`, …), or resq's for a client-side fault; null when none was given. */
  errorCode: string | null;
  holdReason: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  updatedAt: string;
  /** The worker holding the item's lease, or null. */
  owner: string | null;
  /** When that lease ends (ms since the epoch), or null. */
  leaseUntil: number | null;
  /**
   * The fencing token of the item's latest claim: it only grows, one step per claim. Every
   * write a driver makes is conditioned on its owner and this token, so a driver whose item
   * was claimed again (its lease lost in a stall) can no longer write anything for it.
   */
  fence: number;
  /** Attempts after the first (`resq retry`); part of the idempotency key from 1 on. */
  attempt: number;
}

export interface RunRecord {
  id: string;
  batchId: string;
  itemId: string;
  step: number;
  parentRunId: string | null;
  idempotencyKey: string;
  status: string;
  threadId: string | null;
  requiredAction: { tool: string; input: Record<string, unknown> } | null;
  output: { text?: string; tool_results?: unknown[] } | null;
  /** The service's `error.code` when the run failed, or null. */
  errorCode: string | null;
  /** The service's `error.message` (or its error string) when the run failed, or null. */
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
  /** How long it ran (the service's own times, else resq's); null while it runs or when it ended unwatched without service times. */
  seconds: number | null;
  /** It ended while no resq was watching, at or before `finishedAt` (found ended on a resume). */
  unwatched: boolean;
}

/** Why a run failed, as the service said it: `error: {code, message}` kept verbatim. */
export interface RunError {
  code: string | null;
  message: string;
}

export interface DecisionRecord {
  id: number;
  batchId: string;
  itemId: string;
  runId: string;
  tool: string;
  input: Record<string, unknown>;
  answer: Record<string, unknown>;
  by: 'policy' | 'person';
  /** The person's name when `by` is `person` (who answered, as they gave it); null for a policy. */
  person: string | null;
  reason: string | null;
  cost: number;
  decidedAt: string;
  /** The idempotency key of the respond that carries the answer (stored before it is sent); null in rows from before migration 014. */
  respondKey: string | null;
  /** A person's approval that took the batch's approved cost past its budget, as they confirmed (migration 021); false otherwise. */
  overBudget: boolean;
}

export type FileStatus = 'pending' | 'downloaded' | 'failed' | 'expired' | 'missing';

export interface FileRecord {
  batchId: string;
  id: string;
  itemId: string;
  runId: string;
  tool: string | null;
  role: string | null;
  name: string | null;
  url: string;
  mediaType: string | null;
  firstSeenAt: string;
  expiresAt: string;
  status: FileStatus;
  path: string | null;
  bytes: number | null;
  sha256: string | null;
  error: string | null;
  /** The host whose disk holds `path`, or null. */
  host: string | null;
  /**
   * The file's device and inode on that disk as resq wrote it (decimal text), so only that
   * file is served; null for a file downloaded before resq recorded them (migration 024).
   */
  dev: string | null;
  ino: string | null;
}

/** What a download records of a file now on this host's disk. */
export interface DownloadedFile {
  path: string;
  bytes: number;
  sha256: string;
  mediaType: string | null;
  host: string;
  /** The written file's device and inode (decimal text); absent: not known. */
  dev?: string | null;
  ino?: string | null;
}

/**
 * Another host's copy of a downloaded file (`resq files pull` on a machine that lacks it).
 * The file's own record (`FileRecord.host`, `path`) is the first copy; these are the rest.
 */
export interface FileCopy {
  fileId: string;
  itemId: string;
  host: string;
  path: string;
  bytes: number;
  sha256: string;
}

/** A file reference as it appears in a tool result. */
export interface FileRefInput {
  id: string;
  url: string;
  role?: string | null;
  name?: string | null;
  tool?: string | null;
}
