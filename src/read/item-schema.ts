import { z } from 'zod';
import { DeciderSchema, ItemStateSchema, NextStepSchema } from './status-schema.js';
import { ItemWaitSchema } from './wait-schema.js';

// One item in full as every window shows it (`resq show`, the page's item view and its JSON
// API, the notebook's `item`): types come from these schemas.

export const ChainRunSchema = z.object({
  id: z.string(),
  step: z.number(),
  parentRunId: z.string().nullable(),
  status: z.string(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  /** Seconds it ran (the service's own times when it sent them), or null while it runs or when it ended unwatched without them. */
  seconds: z.number().nullable(),
  /** It ended while no resq was watching, at or before `finishedAt`. */
  endedUnwatched: z.boolean(),
  /** The tool the run paused on, if it paused. */
  pausedOn: z.string().nullable(),
  /** The service's error code and message when the run failed, else null. */
  errorCode: z.string().nullable(),
  error: z.string().nullable(),
});
export type ChainRun = z.infer<typeof ChainRunSchema>;

export const PauseSchema = z.object({
  runId: z.string(),
  tool: z.string(),
  input: z.record(z.string(), z.unknown()),
  /** The plan's cost as the service sent it, marked (`1e308 (untrusted: above 1e12)`), when resq does not trust it; else null. */
  untrustedCost: z.string().nullable(),
  /** Who decided it, when, why, with what note; null while it waits for a person. */
  decision: DeciderSchema.nullable(),
  /**
   * `person`: held, waiting for an answer; `send`: answered, the answer not sent yet (a live
   * worker sends it at once, else the next `resq resume`); null: decided and sent, or past.
   */
  waiting: z.enum(['person', 'send']).nullable(),
});
export type Pause = z.infer<typeof PauseSchema>;

export const ItemFileSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  role: z.string().nullable(),
  mediaType: z.string().nullable(),
  status: z.enum(['pending', 'downloaded', 'failed', 'expired', 'missing']),
  /** The host whose disk holds `path`, or null. */
  host: z.string().nullable(),
  path: z.string().nullable(),
  bytes: z.number().nullable(),
  sha256: z.string().nullable(),
  /** Why it is not downloaded, or null. */
  error: z.string().nullable(),
  expiresAt: z.string(),
});
export type ItemFile = z.infer<typeof ItemFileSchema>;

export const ItemViewSchema = z.object({
  batch: z.object({ id: z.string(), name: z.string() }),
  item: z.object({
    id: z.string(),
    seq: z.number(),
    line: z.number(),
    state: ItemStateSchema,
    question: z.string(),
    meta: z.record(z.string(), z.unknown()),
    /** The question set's expected answer (a string, a number or an object), or null. */
    expected: z.unknown(),
    threadKey: z.string().nullable(),
    threadId: z.string().nullable(),
    runStatus: z.string().nullable(),
    /** The answer (Markdown), or the text so far. */
    text: z.string().nullable(),
    error: z.string().nullable(),
    errorCode: z.string().nullable(),
    holdReason: z.string().nullable(),
    startedAt: z.string().nullable(),
    finishedAt: z.string().nullable(),
    attempt: z.number(),
  }),
  runs: z.array(ChainRunSchema),
  pauses: z.array(PauseSchema),
  /** What sends the item on when no live worker carries its batch (e.g. an answer recorded, not sent); null otherwise. */
  next: NextStepSchema.nullable(),
  /** Why a queued item does not start yet (src/read/waits.ts); null for an item not queued. */
  wait: ItemWaitSchema.nullable(),
  files: z.array(ItemFileSchema),
  /** Each scorer's verdict of the item (every version kept), by scorer. */
  verdicts: z.array(
    z.object({ scorer: z.string(), version: z.string(), pass: z.boolean().nullable(), score: z.number().nullable(), reason: z.string(), scoredAt: z.string(), by: z.string() }),
  ),
});
export type ItemView = z.infer<typeof ItemViewSchema>;
