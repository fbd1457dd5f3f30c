import { z } from 'zod';
import { ITEM_STATES } from '../store/item-states.js';
import { WaitGroupSchema } from './wait-schema.js';

// The read model's shapes: a batch's status as every window shows it (`resq status`, the
// page and its JSON API, the notebook helpers, /metrics). Types come from these schemas, so
// the JSON API checks its answers against exactly what the library computes.

export const ItemStateSchema = z.enum(ITEM_STATES);
export const StateCountsSchema = z.record(ItemStateSchema, z.number().int());
export const FileCountsSchema = z.object({ pending: z.number(), downloaded: z.number(), failed: z.number(), expired: z.number(), missing: z.number() });

/** Who decided a pause, when, why, with what note: what every window names. */
export const DeciderSchema = z.object({
  tool: z.string(),
  by: z.enum(['policy', 'person']),
  /** The person's name as they gave it (null for the policy, or a person who gave none). */
  person: z.string().nullable(),
  /** The policy's rule that decided (null for a person). */
  reason: z.string().nullable(),
  /** The person's note (null for the policy, or none given). */
  note: z.string().nullable(),
  decidedAt: z.string(),
  answer: z.record(z.string(), z.unknown()),
  /** The decision in words: "approved", "declined", "chose a, b". */
  words: z.string(),
  cost: z.number(),
  /** A person's approval that took the batch past its budget, as they confirmed. */
  overBudget: z.boolean(),
});
export type Decider = z.infer<typeof DeciderSchema>;

/**
 * A worker attached to the batch with a fresh heartbeat. `gone`: a worker of this host whose
 * process ended (killed, crashed) or whose pid another program now has; its items go to the
 * other workers at their next look. `heartbeatAt` in ms since the epoch.
 */
export const WorkerStatusSchema = z.object({
  id: z.string(),
  host: z.string(),
  pid: z.number(),
  gone: z.boolean(),
  startedAt: z.string(),
  heartbeatAt: z.number(),
  heartbeatAgeMs: z.number(),
  items: z.number(),
});
export type WorkerStatus = z.infer<typeof WorkerStatusSchema>;

/** A held item waiting for a person: its pause, and the decisions its earlier pauses had. */
export const HeldStatusSchema = z.object({
  id: z.string(),
  /** The pause it waits on (its run): what an answer names (`resq answer --run`). */
  runId: z.string().nullable(),
  question: z.string(),
  tool: z.string().nullable(),
  input: z.record(z.string(), z.unknown()).nullable(),
  /** The plan's cost as the service sent it, marked, when resq does not trust it; else null. */
  untrustedCost: z.string().nullable(),
  holdReason: z.string().nullable(),
  updatedAt: z.string(),
  decisions: z.array(DeciderSchema),
});
export type HeldStatus = z.infer<typeof HeldStatusSchema>;

/** A failed or errored item with why it ended so. */
export const FailedStatusSchema = z.object({
  id: z.string(),
  question: z.string(),
  status: z.enum(['failed', 'error']),
  /** The service's error code (`agent_error`, …), or null when it gave none. */
  errorCode: z.string().nullable(),
  /** The service's message verbatim (untrusted text), or resq's for a refused request. */
  error: z.string().nullable(),
});
export type FailedStatus = z.infer<typeof FailedStatusSchema>;

/** What a batch's notifications are doing. */
export const NotifyStatusSchema = z.object({
  /** The receivers in words (hosts, never a URL's path; a live worker's own notify command by its pid and host). */
  receivers: z.string(),
  /** The live senders running a notify command of their own (given on their command line; the command is never stored). */
  commands: z.array(z.object({ host: z.string(), pid: z.number() })),
  undelivered: z.number(),
  /** The latest error of an event not delivered yet (names the receiver by host), or null. */
  lastError: z.string().nullable(),
});
export type NotifyStatus = z.infer<typeof NotifyStatusSchema>;

/** One batch as a list of batches shows it. */
export const BatchCardSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(['runs', 'models']),
  createdAt: z.string(),
  cancelledAt: z.string().nullable(),
  total: z.number(),
  counts: StateCountsSchema,
  /** Items held for a person (`counts.held`, said apart). */
  held: z.number(),
  approvedCost: z.number(),
  files: FileCountsSchema,
  /** Workers with a fresh heartbeat whose process is not known to have ended. */
  liveWorkers: z.number(),
});
export type BatchCard = z.infer<typeof BatchCardSchema>;

/** What must happen for the batch to go on, when nothing will by itself. */
export const NextStepSchema = z.object({
  /** `no-worker`: items are left (or answers wait to be sent) and no live worker carries the batch. */
  why: z.literal('no-worker'),
  /** The words every window shows: `no worker running: resq resume NAME`. */
  text: z.string(),
  /** The command that goes on, pasteable: quoted, with the `--db` and `--sim` it needs (src/text/command-hint.ts). */
  command: z.string(),
});
export type NextStep = z.infer<typeof NextStepSchema>;

/**
 * A scorer's verdicts over the batch's completed items: passed, failed, unscored (no verdict of
 * this version, or one that could not judge), and the pass rate over the judged ones with its
 * 95% Wilson interval (null while none is judged).
 */
export const ScoreRateSchema = z.object({
  /** The scorer's name (its file's). */
  name: z.string(),
  /** Its version: a hash of its settings. */
  version: z.string(),
  passed: z.number().int(),
  failed: z.number().int(),
  unscored: z.number().int(),
  /** passed / (passed + failed); null when nothing was judged. */
  passRate: z.number().nullable(),
  low: z.number().nullable(),
  high: z.number().nullable(),
});
export type ScoreRate = z.infer<typeof ScoreRateSchema>;

/** A batch's status, computed once (src/read/batch-status.ts). */
export const BatchStatusSchema = BatchCardSchema.extend({
  /** The batch's concurrency: most runs in flight. */
  concurrency: z.number(),
  /** Runs in flight at the service over every worker. */
  inFlight: z.number(),
  /** The adaptive cap when lowered after HTTP 429, else null. */
  capLimit: z.number().nullable(),
  workers: z.array(WorkerStatusSchema),
  /** The first held items in file order (`held` counts them all). */
  heldItems: z.array(HeldStatusSchema),
  /** Items not finished and not held: queued, or at the service. */
  unfinished: z.number(),
  /**
   * Items ended per second over the time runs were running, in a recent window of ended items
   * (time with nothing running, a batch stopped and resumed, is not counted); null before two ended.
   */
  ratePerS: z.number().nullable(),
  /**
   * Seconds until the unfinished items are done at that rate, leaving out `etaLeavesOut`; 0 when
   * none is left; null without a rate or without a live worker.
   */
  etaS: z.number().nullable(),
  /** Queued items the ETA leaves out: they cannot start until a person acts (answers the held item of their thread, resumes, retries). */
  etaLeavesOut: z.number().int(),
  /** The queued items by why they wait (a count per reason, the first few named); empty when none is queued. */
  waiting: z.array(WaitGroupSchema),
  next: NextStepSchema.nullable(),
  /** The batch's notifications: who it tells, events not delivered yet, the last delivery error; null when it tells nobody. */
  notify: NotifyStatusSchema.nullable(),
  /** Items whose create request may or may not have reached the service; resume re-sends them with the same key. */
  unknownSubmission: z.array(z.string()),
  invalidRows: z.number(),
  /** The rows `--skip-invalid` left out, as `file:line: field: reason` (the first 100). */
  skipped: z.array(z.string()),
  /** The first failed and errored items in file order. */
  failed: z.array(FailedStatusSchema),
  /** Failed and errored items in all. */
  failedTotal: z.number(),
  /** The batch budget its policy sets (confirm_scope.batch_budget), against which `budgetSpent` runs; null: none. */
  budget: z.number().nullable(),
  /**
   * What the budget has spent: `approvedCost` and what the batch's agent judge approved (its
   * `<name>.judge` spends from this budget); `approvedCost` alone for a batch without one.
   */
  budgetSpent: z.number(),
  /** Each scorer's pass rate (the batch's scorers, or every scorer with verdicts); empty when none judges it. */
  scores: z.array(ScoreRateSchema),
});
export type BatchStatus = z.infer<typeof BatchStatusSchema>;
