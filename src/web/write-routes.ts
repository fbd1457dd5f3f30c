import { Readable } from 'node:stream';
import type { Context, Hono } from 'hono';
import { AlreadyAnsweredError, ItemNotHeldError, ResqError } from '../errors.js';
import type { Store } from '../store/index.js';
import { AnswerBodySchema, AnswerResultSchema, CancelBodySchema, CancelResultSchema, ExportQuerySchema, RetryBodySchema, RetryResultSchema } from './api-schemas.js';
import type { WebActions } from './actions.js';
import { badRequest, queryOf, sendError, sendJson } from './respond.js';
import type { AuthVia } from './security.js';

/** The variables the guard leaves for the routes. */
export type WebEnv = { Variables: { authVia: AuthVia } };

/** What the write routes need. */
export interface WriteDeps {
  store: Store;
  actions: WebActions;
}

async function jsonBody(c: Context): Promise<{ ok: true; value: unknown } | { ok: false; res: Response }> {
  if (!(c.req.header('content-type') ?? '').toLowerCase().startsWith('application/json'))
    return { ok: false, res: sendError(c, 415, 'RESQ_BAD_REQUEST', 'body: send JSON (Content-Type: application/json)') };
  try {
    return { ok: true, value: await c.req.json() };
  } catch {
    return { ok: false, res: sendError(c, 400, 'RESQ_BAD_REQUEST', 'body: not valid JSON') };
  }
}

/** Maps a library error to its answer: someone answered first 409 (who and when), a user's mistake 400, an item not held 409; anything else is a bug (thrown: 500, logged). */
function failure(c: Context, e: unknown): Response {
  if (e instanceof AlreadyAnsweredError) {
    const who = e.by === 'policy' ? 'the policy' : (e.person ?? 'a person');
    return sendError(c, 409, e.code, e.message, { answeredBy: who, answeredAt: e.answeredAt });
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

  app.post('/api/batches/:batch/items/:item/answer', async (c) => {
    const body = await jsonBody(c);
    if (!body.ok) return body.res;
    const parsed = AnswerBodySchema.safeParse(body.value);
    if (!parsed.success) return badRequest(c, 'body', parsed.error);
    const batch = await batchOf(c);
    if (!batch) return sendError(c, 404, 'RESQ_NOT_FOUND', `no batch named "${c.req.param('batch')}"`);
    const { person, reply } = parsed.data;
    try {
      const answer = await d.actions.answer(batch, c.req.param('item'), person, reply);
      return sendJson(c, AnswerResultSchema, { item: c.req.param('item'), answer, by: 'person', person });
    } catch (e) {
      return failure(c, e);
    }
  });

  app.post('/api/batches/:batch/retry', async (c) => {
    const body = await jsonBody(c);
    if (!body.ok) return body.res;
    const parsed = RetryBodySchema.safeParse(body.value);
    if (!parsed.success) return badRequest(c, 'body', parsed.error);
    const batch = await batchOf(c);
    if (!batch) return sendError(c, 404, 'RESQ_NOT_FOUND', `no batch named "${c.req.param('batch')}"`);
    try {
      const requeued = await d.actions.retry(batch, { ...(parsed.data.states ? { states: parsed.data.states } : {}), ...(parsed.data.items ? { items: parsed.data.items } : {}) });
      return sendJson(c, RetryResultSchema, { requeued });
    } catch (e) {
      return failure(c, e);
    }
  });

  app.post('/api/batches/:batch/cancel', async (c) => {
    const body = await jsonBody(c);
    if (!body.ok) return body.res;
    const parsed = CancelBodySchema.safeParse(body.value);
    if (!parsed.success) return badRequest(c, 'body', parsed.error);
    const batch = await batchOf(c);
    if (!batch) return sendError(c, 404, 'RESQ_NOT_FOUND', `no batch named "${c.req.param('batch')}"`);
    try {
      return sendJson(c, CancelResultSchema, await d.actions.cancel(batch));
    } catch (e) {
      return failure(c, e);
    }
  });

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
