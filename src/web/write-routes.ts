import { Readable } from 'node:stream';
import type { Context, Hono } from 'hono';
import { AlreadyAnsweredError, ItemNotHeldError, OverBudgetError, PauseMovedError, ResqError } from '../errors.js';
import type { z } from 'zod';
import type { BatchRecord, BatchStore, ReadStore, ScoreStore } from '../store/index.js';
import { AnswerBodySchema, AnswerResultSchema, BulkAnswerBodySchema, BulkAnswerResultSchema, CancelBodySchema, CancelResultSchema, ExportQuerySchema, RetryBodySchema, RetryResultSchema } from './api-schemas.js';
import type { WebActions } from './actions.js';
import { readNextStep } from '../read/batch-status.js';
import { deciderName } from '../read/decision-text.js';
import { commandHint } from '../text/command-hint.js';
import { badRequest, queryOf, sendError, sendJson } from './respond.js';
import type { AuthVia } from './security.js';

/** The variables the guard leaves for the routes. */
export type WebEnv = { Variables: { authVia: AuthVia; /** The session id of a browser's request, null for a script's. */ session: string | null } };

/** What the write routes need. */
export interface WriteDeps {
  store: BatchStore & ReadStore & ScoreStore;
  actions: WebActions;
  now: () => number;
  /** The database `resq serve` was given: `next` carries it as `--db`. */
  db?: string | undefined;
}

/** `application/json`, exactly, with at most a UTF-8 charset parameter. */
const JSON_TYPE = /^application\/json\s*(;\s*charset\s*=\s*("utf-8"|utf-8)\s*)?$/i;

/** A request's JSON body: 415 unless sent as `application/json`, 400 when not JSON. */
export async function jsonBody(c: Context): Promise<{ ok: true; value: unknown } | { ok: false; res: Response }> {
  if (!JSON_TYPE.test(c.req.header('content-type') ?? ''))
    return { ok: false, res: sendError(c, 415, 'RESQ_BAD_REQUEST', 'body: send JSON (Content-Type: application/json, charset utf-8 if any)') };
  try {
    return { ok: true, value: await c.req.json() };
  } catch {
    return { ok: false, res: sendError(c, 400, 'RESQ_BAD_REQUEST', 'body: not valid JSON') };
  }
}

/**
 * Maps a library error to its answer: someone answered first 409 (who and when), a pause moved
 * on 409 (with the pause waiting now), an approval past the budget 409 (with the totals), a
 * user's mistake 400, an item not held 409; anything else is a bug (thrown: 500, logged).
 */
function failure(c: Context, e: unknown, batch: BatchRecord, db?: string): Response {
  if (e instanceof PauseMovedError)
    return sendError(c, 409, e.code, `${e.message}; ${commandHint(['resq', 'show', batch.name, e.itemId], { db })}`, { pause: e.now, seen: e.seen });
  if (e instanceof OverBudgetError)
    return sendError(c, 409, e.code, `${e.message}: confirm to go over the budget`, { budget: e.budget, approvedCost: e.approved, cost: e.cost, newTotal: e.total });
  if (e instanceof AlreadyAnsweredError) {
    return sendError(c, 409, e.code, e.message, { answeredBy: deciderName(e), answeredAt: e.answeredAt });
  }
  if (e instanceof ItemNotHeldError) return sendError(c, 409, e.code, e.message);
  if (e instanceof ResqError) {
    if (e.code === 'RESQ_INPUT' || e.code === 'RESQ_CONFIG') return sendError(c, 400, e.code, e.message);
    return sendError(c, 502, e.code, e.message);
  }
  throw e;
}

function safeFileName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80) || 'batch';
}

/** The routes that change a batch (each through the library's operation) and the export download. */
export function writeRoutes(app: Hono<WebEnv>, d: WriteDeps): void {
  const batchOf = async (c: Context) => d.store.findBatch(c.req.param('batch') ?? '');

  /**
   * One write: its JSON body checked against `schema`, the batch found (404 otherwise), then
   * `act` through the library; a library error is answered by {@link failure}.
   */
  const write = <S extends z.ZodType>(path: string, schema: S, act: (c: Context, batch: BatchRecord, body: z.infer<S>) => Promise<Response>): void => {
    app.post(path, async (c) => {
      const body = await jsonBody(c);
      if (!body.ok) return body.res;
      const parsed = schema.safeParse(body.value);
      if (!parsed.success) return badRequest(c, 'body', parsed.error);
      const batch = await batchOf(c);
      if (!batch) return sendError(c, 404, 'RESQ_NOT_FOUND', `no batch named "${c.req.param('batch')}"`);
      try {
        return await act(c, batch, parsed.data);
      } catch (e) {
        return failure(c, e, batch, d.db);
      }
    });
  };

  write('/api/batches/:batch/items/:item/answer', AnswerBodySchema, async (c, batch, { person, runId, overBudget, reply }) => {
    const r = await d.actions.answer(batch, c.req.param('item') ?? '', { person, runId, overBudget: overBudget === true }, reply);
    // Said with the answer: sent at once by a live worker, or only when someone runs the batch.
    const next = await readNextStep(d.store, batch, d.now(), { db: d.db });
    return sendJson(c, AnswerResultSchema, { item: r.item, runId: r.runId, cost: r.cost, overBudget: r.overBudget, answer: r.answer, by: 'person', person, next });
  });

  // A bulk decision: the pauses the person selected (and saw in the confirmation), each answered on its own.
  write('/api/batches/:batch/held/answer', BulkAnswerBodySchema, async (c, batch, { person, overBudget, reply, items }) => {
    const r = await d.actions.answerMany(batch, items, { person, overBudget: overBudget === true }, reply);
    const next = r.answered.length > 0 ? await readNextStep(d.store, batch, d.now(), { db: d.db }) : null;
    return sendJson(c, BulkAnswerResultSchema, { person, answered: r.answered, skipped: r.skipped, totalCost: r.totalCost, spent: r.spent, next });
  });

  write('/api/batches/:batch/retry', RetryBodySchema, async (c, batch, body) => {
    const requeued = await d.actions.retry(batch, { ...(body.states ? { states: body.states } : {}), ...(body.items ? { items: body.items } : {}) });
    const next = requeued > 0 ? await readNextStep(d.store, batch, d.now(), { db: d.db }) : null;
    return sendJson(c, RetryResultSchema, { requeued, next });
  });

  write('/api/batches/:batch/cancel', CancelBodySchema, async (c, batch) => sendJson(c, CancelResultSchema, await d.actions.cancel(batch)));

  app.get('/api/batches/:batch/export', async (c) => {
    const q = ExportQuerySchema.safeParse(queryOf(c));
    if (!q.success) return badRequest(c, 'query', q.error);
    const batch = await batchOf(c);
    if (!batch) return sendError(c, 404, 'RESQ_NOT_FOUND', `no batch named "${c.req.param('batch')}"`);
    const { exportLines } = await import('../runner/operations/export.js');
    const csv = q.data.format === 'csv';
    const lines = exportLines(d.store, batch, { format: q.data.format });
    const body = Readable.toWeb(Readable.from(lines)) as ReadableStream<Uint8Array>;
    return new Response(body, {
      headers: {
        'Content-Type': csv ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
        'Content-Disposition': `attachment; filename="${safeFileName(batch.name)}.${csv ? 'csv' : 'jsonl'}"`,
        'Cache-Control': 'no-store',
      },
    });
  });
}
