import { z } from 'zod';
import { decodeCursor } from '../store/index.js';

/**
 * The JSON API's shapes, requests and responses alike: every request is parsed with these
 * before anything is read or written, every response is checked against them before it is
 * sent (so the README's description and the wire agree). Types come from these schemas.
 */

import { BatchCardSchema, BatchStatusSchema, NextStepSchema, ItemStateSchema, ItemFileSchema, ItemViewSchema as ReadItemViewSchema } from '../read/index.js';
import { ITEM_STATES } from '../store/item-states.js';

// Batches, a batch's status and an item's view are the read model's (src/read): the page's
// API sends exactly what `resq status`, `resq show` and the notebook helpers show.
const STATES = ITEM_STATES;
export { ItemStateSchema };
export type { BatchCard } from '../read/index.js';

export const BatchListSchema = z.object({ batches: z.array(BatchCardSchema) });

/** One batch, live: what the batch page shows and its event stream sends (the read model's status). */
export const OverviewSchema = BatchStatusSchema;
export type Overview = z.infer<typeof OverviewSchema>;

export const ItemSummarySchema = z.object({
  id: z.string(),
  seq: z.number(),
  state: ItemStateSchema,
  question: z.string(),
  answer: z.string().nullable(),
  runStatus: z.string().nullable(),
  error: z.string().nullable(),
  holdReason: z.string().nullable(),
  meta: z.record(z.string(), z.unknown()),
  step: z.number(),
  updatedAt: z.string(),
  finishedAt: z.string().nullable(),
});
/** A page of items: `next` (null: the last page) goes in `after`, `prev` (null: the first page) in `before`. */
export const ItemPageSchema = z.object({ items: z.array(ItemSummarySchema), next: z.string().nullable(), prev: z.string().nullable() });
const cursorParam = (name: string, from: string) =>
  z
    .string()
    .max(2000)
    .refine((s) => decodeCursor(s) !== null, `${name}: not a cursor this server gave (a page's \`${from}\`)`)
    .optional();

/** The query of GET /api/batches/:batch/items (all optional; filters kept in the page's URL as they are). */
export const ItemsQuerySchema = z.object({
  state: z
    .string()
    .optional()
    .transform((s, ctx) => {
      if (!s) return undefined;
      const list = s.split(',').map((x) => x.trim()).filter(Boolean);
      for (const x of list) if (!(STATES as readonly string[]).includes(x)) ctx.addIssue({ code: 'custom', message: `state: "${x}" is not one of ${STATES.join(', ')}` });
      return list as (typeof STATES)[number][];
    }),
  meta: z.string().max(500).optional(),
  value: z.string().max(2000).optional(),
  q: z.string().max(500).optional(),
  /** With `verdict`: the items this scorer (by name) passed, failed or left unscored. */
  scorer: z.string().max(200).optional(),
  verdict: z.enum(['passed', 'failed', 'unscored']).optional(),
  sort: z.enum(['seq', 'id', 'updated']).optional(),
  desc: z.enum(['0', '1']).optional(),
  after: cursorParam('after', 'next'),
  before: cursorParam('before', 'prev'),
  limit: z.coerce.number().int().min(1).max(500).optional(),
});


const FileViewSchema = z.enum(['image', 'svg', 'markdown', 'csv', 'text', 'download']);
export type FileView = z.infer<typeof FileViewSchema>;

/** The read model's item view, with the answer rendered for the page and each file's place here. */
export const ItemViewSchema = ReadItemViewSchema.extend({
  /** Each scorer's verdict on the item, by scorer then version (the reason is untrusted text: a command scorer's or the service's). */
  verdicts: z.array(
    z.object({ scorer: z.string(), version: z.string(), pass: z.boolean().nullable(), score: z.number().nullable(), reason: z.string(), scoredAt: z.string(), by: z.string() }),
  ),
  /** The answer rendered from Markdown (raw HTML escaped, http(s)/mailto links only), or null. */
  answerHtml: z.string().nullable(),
  files: z.array(
    ItemFileSchema.extend({
      /** On this server's disk: it can be shown or downloaded here. */
      here: z.boolean(),
      view: FileViewSchema,
    }),
  ),
});
export type ItemView = z.infer<typeof ItemViewSchema>;

/** A file shown inside the page (text kinds only; images are <img> of the file's URL). */
export const FilePreviewSchema = z.object({
  kind: z.enum(['markdown', 'csv', 'text']),
  html: z.string().optional(),
  rows: z.array(z.array(z.string())).optional(),
  text: z.string().optional(),
  truncated: z.boolean(),
});

/** A pause as a person saw it, or as it waits now: its run, tool and cost. */
const PauseSeenSchema = z.object({ runId: z.string(), tool: z.string(), cost: z.number().nullable() });

/** A run id as the page and scripts name a pause by. */
const RunIdSchema = z.string().min(1, 'runId: name the pause you answer (its run id, as the item view shows it)').max(200);

/** POST …/answer: the person's reply and their name, the pause they answer, and whether they confirmed going over the budget. */
export const AnswerBodySchema = z.object({
  person: z.string().trim().min(1, 'person: give your name').max(100),
  runId: RunIdSchema,
  /** Approve even though it takes the batch past its budget (asked again by the page). */
  overBudget: z.literal(true).optional(),
  reply: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('approve'), note: z.string().max(2000).optional() }),
    z.object({ kind: z.literal('decline'), note: z.string().max(2000).optional() }),
    z.object({ kind: z.literal('choose'), ids: z.array(z.string().min(1)).min(1).max(100), note: z.string().max(2000).optional() }),
  ]),
});
/** What an answer recorded; `next`: the command that sends it when no live worker carries the batch (null: sent at once). */
export const AnswerResultSchema = z.object({
  item: z.string(),
  runId: z.string(),
  cost: z.number(),
  overBudget: z.boolean(),
  answer: z.record(z.string(), z.unknown()),
  by: z.literal('person'),
  person: z.string(),
  next: NextStepSchema.nullable(),
});

/** Most held items one bulk decision names (and the selection lists). */
export const HELD_LISTED = 500;

const costParam = (name: string) =>
  z
    .string()
    .optional()
    .transform((s, ctx) => {
      if (s === undefined || s.trim() === '') return undefined;
      const n = Number(s);
      if (!Number.isFinite(n) || n < 0) ctx.addIssue({ code: 'custom', message: `${name}: give a number of 0 or more` });
      return n;
    });

/** The query of GET /api/batches/:batch/held: the filters of a bulk decision (all optional). */
export const HeldQuerySchema = z.object({
  tool: z.string().max(200).optional(),
  minCost: costParam('minCost'),
  maxCost: costParam('maxCost'),
  meta: z.string().max(500).optional(),
  value: z.string().max(2000).optional(),
  q: z.string().max(500).optional(),
});

/** The held items a filter selects: the first {@link HELD_LISTED} listed, count and total cost of all. */
export const HeldSelectionSchema = z.object({
  items: z.array(
    z.object({ id: z.string(), runId: z.string(), tool: z.string(), cost: z.number().nullable(), untrustedCost: z.string().nullable(), holdReason: z.string().nullable(), question: z.string(), meta: z.record(z.string(), z.unknown()) }),
  ),
  count: z.number(),
  totalCost: z.number(),
});

/** POST …/held/answer: one reply for every pause listed (each item with the run it was paused on), with the person's name (and a note in the reply). */
export const BulkAnswerBodySchema = AnswerBodySchema.omit({ runId: true }).extend({
  items: z.array(z.object({ id: z.string().min(1).max(1000), runId: RunIdSchema })).min(1, 'select at least one held item').max(HELD_LISTED),
});
/** What a bulk decision did: each item answered, each skipped with who answered it first; `next` as for one answer. */
export const BulkAnswerResultSchema = z.object({
  person: z.string(),
  answered: z.array(z.object({ id: z.string(), runId: z.string(), tool: z.string(), cost: z.number().nullable(), overBudget: z.boolean(), answer: z.record(z.string(), z.unknown()) })),
  skipped: z.array(z.object({ id: z.string(), reason: z.string(), by: z.string().nullable(), at: z.string().nullable(), pause: PauseSeenSchema.optional() })),
  totalCost: z.number(),
  /** The cost approved (0 for declines and choices). */
  spent: z.number(),
  next: NextStepSchema.nullable(),
});

export const RetryBodySchema = z.object({
  states: z.array(z.enum(['failed', 'error', 'cancelled'])).min(1).optional(),
  items: z.array(z.string()).max(10_000).optional(),
});
/** What a retry queued; `next`: the command that runs them when no live worker carries the batch. */
export const RetryResultSchema = z.object({ requeued: z.number(), next: NextStepSchema.nullable() });
export const CancelBodySchema = z.object({}).passthrough();
export const CancelResultSchema = z.object({ queued: z.number(), cancelled: z.number(), left: z.number(), reason: z.string().nullable() });

/**
 * An error answer: a message for a person; `answeredBy`/`answeredAt` when someone was first;
 * `pause` (the one waiting now) and `seen` when the item paused again since (RESQ_PAUSE_MOVED);
 * the totals when an approval would go past the budget (RESQ_OVER_BUDGET: send `overBudget: true` to go on).
 */
export const ErrorSchema = z.object({
  error: z.string(),
  code: z.string(),
  answeredBy: z.string().optional(),
  answeredAt: z.string().optional(),
  pause: PauseSeenSchema.optional(),
  seen: PauseSeenSchema.nullable().optional(),
  budget: z.number().optional(),
  approvedCost: z.number().optional(),
  cost: z.number().optional(),
  newTotal: z.number().optional(),
});

const TurnSideSchema = z.object({ pass: z.boolean().nullable(), score: z.number().nullable(), reason: z.string(), version: z.string() });
const VerdictTurnSchema = z.object({ id: z.string(), scorer: z.string(), change: z.enum(['regressed', 'fixed']), question: z.string(), a: TurnSideSchema.nullable(), b: TurnSideSchema });
export const CompareQuerySchema = z.object({ a: z.string().min(1), b: z.string().min(1), limit: z.coerce.number().int().min(1).max(5000).optional() });
const CompareSideSchema = z.object({ state: z.string(), runStatus: z.string().nullable(), question: z.string(), text: z.string().nullable(), decisions: z.array(z.string()), files: z.array(z.string()) });
export const CompareResultSchema = z.object({
  a: z.string(),
  b: z.string(),
  counts: z.object({ both: z.number(), onlyA: z.number(), onlyB: z.number(), same: z.number(), stateChanged: z.number(), questionChanged: z.number(), answerChanged: z.number(), decisionsDiffer: z.number(), filesChanged: z.number() }),
  changed: z.array(
    z.object({
      id: z.string(),
      a: CompareSideSchema.nullable(),
      b: CompareSideSchema.nullable(),
      stateChanged: z.boolean(),
      questionChanged: z.boolean(),
      answerChanged: z.boolean(),
      decisionsDiffer: z.boolean(),
      filesAdded: z.array(z.string()),
      filesGone: z.array(z.string()),
      diff: z.array(z.object({ op: z.enum([' ', '+', '-']), text: z.string() })).nullable(),
    }),
  ),
  more: z.boolean(),
  /** The command that lists every difference, pasteable (`resq compare A B --json`, quoted, with `--db`). */
  listAll: z.string(),
  /** Verdicts paired by item id and scorer name: counts per scorer, then the first regressed and fixed items. */
  verdicts: z.object({
    paired: z.number(),
    scorers: z.array(
      z.object({
        scorer: z.string(),
        versionsA: z.array(z.string()),
        versionsB: z.array(z.string()),
        versionsDiffer: z.boolean(),
        regressed: z.number(),
        fixed: z.number(),
        bothPass: z.number(),
        bothFail: z.number(),
        unscored: z.number(),
        p: z.number(),
        words: z.string(),
      }),
    ),
    regressed: z.array(VerdictTurnSchema),
    fixed: z.array(VerdictTurnSchema),
    more: z.boolean(),
  }),
});
export const ExportQuerySchema = z.object({ format: z.enum(['jsonl', 'csv']).default('jsonl') });
