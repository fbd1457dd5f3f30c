import type { InputProblem } from '../../errors.js';
import { parseStoredJson } from '../../text/json-text.js';
import { withoutStoredCommand } from '../notify-settings.js';
import { scorersForStore, scorersFromStore } from '../../score/scorer-specs.js';
import type { ModelRunRecord } from '../shapes.js';
import type { BatchRecord, BatchSettings, DecisionRecord, FileRecord, FileStatus, ItemRecord, ItemState, RunRecord, WorkerRecord } from '../types.js';

/**
 * Rows as both adapters read them (the same columns, JSON kept as text) and the records the
 * rest of resq uses: one mapping per table, shared by SQLite and PostgreSQL.
 */

/** JSON.parse for a nullable column. */
export function parseJson<T = unknown>(text: string | null | undefined): T | null {
  return text == null ? null : (JSON.parse(text) as T);
}

export interface BatchRow {
  id: string;
  name: string;
  kind: string;
  source_path: string;
  source_sha256: string;
  base_url: string | null;
  settings: string;
  policy: string | null;
  total_items: number;
  invalid_rows: string;
  created_at: string;
  updated_at: string;
  cancelled_at: string | null;
}

/** A batch's settings as read: no notify command, and its scorers checked (score/scorers-file.ts). */
function storedSettings(raw: BatchSettings): BatchSettings {
  const s = withoutStoredCommand(raw);
  if (s.scorers === undefined) return s;
  const scorers = scorersFromStore(s.scorers);
  const { scorers: _raw, ...rest } = s;
  return scorers ? { ...rest, scorers } : rest;
}

export function batchFromRow(r: BatchRow): BatchRecord {
  return {
    id: r.id,
    name: r.name,
    kind: r.kind as BatchRecord['kind'],
    sourcePath: r.source_path,
    sourceSha256: r.source_sha256,
    baseUrl: r.base_url,
    settings: storedSettings(JSON.parse(r.settings) as BatchSettings),
    policy: parseJson(r.policy),
    totalItems: r.total_items,
    invalidRows: JSON.parse(r.invalid_rows) as InputProblem[],
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    cancelledAt: r.cancelled_at,
  };
}

export interface RunRow {
  id: string;
  batch_id: string;
  item_id: string;
  step: number;
  parent_run_id: string | null;
  idempotency_key: string;
  status: string;
  thread_id: string | null;
  required_action: string | null;
  output: string | null;
  error_code: string | null;
  error: string | null;
  created_at: string;
  finished_at: string | null;
  seconds: number | null;
  unwatched: number | boolean;
}

export function runFromRow(r: RunRow): RunRecord {
  return {
    id: r.id,
    batchId: r.batch_id,
    itemId: r.item_id,
    step: r.step,
    parentRunId: r.parent_run_id,
    idempotencyKey: r.idempotency_key,
    status: r.status,
    threadId: r.thread_id,
    requiredAction: parseJson(r.required_action),
    output: parseJson(r.output),
    errorCode: r.error_code ?? null,
    error: r.error ?? null,
    createdAt: r.created_at,
    finishedAt: r.finished_at,
    seconds: r.seconds === null ? null : Number(r.seconds),
    unwatched: Boolean(r.unwatched),
  };
}

export interface FileRow {
  batch_id: string;
  id: string;
  item_id: string;
  run_id: string;
  tool: string | null;
  role: string | null;
  name: string | null;
  url: string;
  media_type: string | null;
  first_seen_at: string;
  expires_at: string;
  status: string;
  path: string | null;
  bytes: number | null;
  sha256: string | null;
  error: string | null;
  host: string | null;
  /** 024_file_identity; absent from a read that names its columns. */
  disk_dev?: string | null;
  disk_ino?: string | null;
}

export function fileFromRow(r: FileRow): FileRecord {
  return {
    batchId: r.batch_id,
    id: r.id,
    itemId: r.item_id,
    runId: r.run_id,
    tool: r.tool,
    role: r.role,
    name: r.name,
    url: r.url,
    mediaType: r.media_type,
    firstSeenAt: r.first_seen_at,
    expiresAt: r.expires_at,
    status: r.status as FileStatus,
    path: r.path,
    bytes: r.bytes,
    sha256: r.sha256,
    error: r.error,
    host: r.host,
    dev: r.disk_dev ?? null,
    ino: r.disk_ino ?? null,
  };
}

export interface DecisionRow {
  id: number;
  batch_id: string;
  item_id: string;
  run_id: string;
  tool: string;
  input: string;
  answer: string;
  by: 'policy' | 'person';
  /** Added by migration 007: null in rows recorded before it. */
  person?: string | null;
  reason: string | null;
  cost: number;
  decided_at: string;
  /** Added by migration 014. */
  respond_key?: string | null;
  /** Added by migration 021 (0/1 in SQLite, a boolean in PostgreSQL). */
  over_budget?: number | boolean | null;
}

export interface ModelRunRow {
  batch_id: string;
  item_id: string;
  model_id: string;
  inputs: string;
  mode: string | null;
  idempotency_key: string | null;
  submits: number;
  model_run_id: string | null;
  http_status: number | null;
  status: string | null;
  poll_url: string | null;
  outputs: string | null;
  error: string | null;
  credits: number | null;
  polls: number;
  submitted_at: string | null;
  admitted_at: string | null;
  finished_at: string | null;
}

export function modelRunFromRow(r: ModelRunRow): ModelRunRecord {
  return {
    batchId: r.batch_id,
    itemId: r.item_id,
    modelId: r.model_id,
    inputs: JSON.parse(r.inputs) as Record<string, unknown>,
    mode: r.mode as ModelRunRecord['mode'],
    idempotencyKey: r.idempotency_key,
    submits: r.submits,
    modelRunId: r.model_run_id,
    httpStatus: r.http_status,
    status: r.status,
    pollUrl: r.poll_url,
    outputs: parseJson(r.outputs),
    error: r.error,
    credits: r.credits,
    polls: r.polls,
    submittedAt: r.submitted_at,
    admittedAt: r.admitted_at,
    finishedAt: r.finished_at,
  };
}

/** An items row as SQLite returns it. */
export interface ItemRow {
  batch_id: string;
  id: string;
  seq: number;
  line: number;
  question: string;
  thread_key: string | null;
  meta: string;
  /** Added by migration 029 (JSON text or NULL); absent from a row read without it. */
  expected?: string | null;
  state: string;
  step: number;
  pending_key: string | null;
  pending_answer: string | null;
  run_id: string | null;
  thread_id: string | null;
  run_status: string | null;
  text: string | null;
  error: string | null;
  error_code: string | null;
  hold_reason: string | null;
  started_at: string | null;
  finished_at: string | null;
  updated_at: string;
  owner: string | null;
  lease_until: number | null;
  attempt: number;
  /** Added by migration 014. */
  fence: number;
}

/** Turns an items row into the record the rest of resq uses. */
export function itemFromRow(r: ItemRow): ItemRecord {
  return {
    batchId: r.batch_id,
    id: r.id,
    seq: r.seq,
    line: r.line,
    question: r.question,
    threadKey: r.thread_key,
    // Numbers keep the text the file had (12345678901234567890, -0, 1.50) through to the export.
    meta: parseStoredJson(r.meta) as Record<string, unknown>,
    expected: r.expected == null ? null : parseStoredJson(r.expected),
    state: r.state as ItemState,
    step: r.step,
    pendingKey: r.pending_key,
    pendingAnswer: parseJson(r.pending_answer),
    runId: r.run_id,
    threadId: r.thread_id,
    runStatus: r.run_status,
    text: r.text,
    error: r.error,
    errorCode: r.error_code ?? null,
    holdReason: r.hold_reason,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    updatedAt: r.updated_at,
    owner: r.owner,
    leaseUntil: r.lease_until,
    attempt: r.attempt,
    fence: r.fence ?? 0,
  };
}

/** A workers row with the count of items it holds (`n`), as both adapters' live-worker reads return it. */
export interface WorkerRow {
  id: string;
  batch_id: string;
  host: string;
  pid: number;
  pid_start: string | null;
  started_at: string;
  heartbeat_at: number;
  n: number;
}

export function workerFromRow(r: WorkerRow): WorkerRecord {
  return { id: r.id, batchId: r.batch_id, host: r.host, pid: r.pid, pidStart: r.pid_start, startedAt: r.started_at, heartbeatAt: r.heartbeat_at, items: r.n };
}

/** A decisions row as the record. */
export function decisionFromRow(r: DecisionRow): DecisionRecord {
  return {
    id: r.id,
    batchId: r.batch_id,
    itemId: r.item_id,
    runId: r.run_id,
    tool: r.tool,
    input: JSON.parse(r.input) as Record<string, unknown>,
    answer: JSON.parse(r.answer) as Record<string, unknown>,
    by: r.by,
    person: r.person ?? null,
    reason: r.reason,
    cost: r.cost,
    decidedAt: r.decided_at,
    respondKey: r.respond_key ?? null,
    overBudget: r.over_budget === true || r.over_budget === 1,
  };
}

/**
 * A batch's settings as written: a `command` scorer without its program (a program runs only
 * where its own command line named it; the database holds data, never a program to run).
 */
export function settingsText(s: BatchSettings): string {
  return JSON.stringify(s.scorers ? { ...s, scorers: scorersForStore(s.scorers) } : s);
}
