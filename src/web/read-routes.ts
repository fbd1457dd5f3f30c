import type { Context, Hono } from 'hono';
import type { BatchStore, FileStore, ReadStore, ScoreStore } from '../store/index.js';
import { BatchListSchema, CompareQuerySchema, CompareResultSchema, HELD_LISTED, HeldQuerySchema, HeldSelectionSchema, ItemPageSchema, ItemsQuerySchema, ItemViewSchema, OverviewSchema } from './api-schemas.js';
import { cutText } from '../store/item-page-shapes.js';
import { ResqError } from '../errors.js';
import { runsOverTimeSvg, stateBarSvg } from './charts.js';
import type { LiveHub, LiveSubscription } from './live.js';
import { metricsText } from './metrics.js';
import { badRequest, queryOf, sendError, sendJson } from './respond.js';
import { batchCard, readBatchStatus, STALE_MS } from '../read/batch-status.js';
import { itemViewOf } from './views.js';
import { itemPageQuery } from './items-section.js';
import { verdictFilterOf } from './verdict-filter.js';
import { commandHint } from '../text/command-hint.js';
import type { WebEnv } from './write-routes.js';

/** What the read routes need. */
export interface ReadDeps {
  store: BatchStore & ReadStore & FileStore & ScoreStore;
  live: LiveHub;
  now: () => number;
  /** The database `resq serve` was given: suggested commands carry it as `--db`. */
  db?: string | undefined;
  /** Time between keep-alive comments on an idle event stream. @default 25000 */
  keepAliveMs?: number;
}

const notFound = (c: Context, name: string): Response => sendError(c, 404, 'RESQ_NOT_FOUND', `no batch named "${name}"`);

/** GET routes of the JSON API, the charts, the event stream and /metrics. */
export function readRoutes(app: Hono<WebEnv>, d: ReadDeps): void {
  app.get('/api/batches', async (c) => {
    const cards = [];
    for (const b of await d.store.listBatches()) cards.push(batchCard(await d.store.overview(b.id, d.now(), STALE_MS)));
    return sendJson(c, BatchListSchema, { batches: cards });
  });

  app.get('/api/batches/:batch', async (c) => {
    const batch = await d.store.findBatch(c.req.param('batch'));
    if (!batch) return notFound(c, c.req.param('batch'));
    return sendJson(c, OverviewSchema, await readBatchStatus(d.store, batch, { nowMs: d.now(), hint: { db: d.db } }));
  });

  app.get('/api/batches/:batch/items', async (c) => {
    const q = ItemsQuerySchema.safeParse(queryOf(c));
    if (!q.success) return badRequest(c, 'query', q.error);
    const batch = await d.store.findBatch(c.req.param('batch'));
    if (!batch) return notFound(c, c.req.param('batch'));
    const v = q.data;
    if ((v.meta === undefined) !== (v.value === undefined)) return sendError(c, 400, 'RESQ_BAD_REQUEST', 'query: meta and value go together (meta=FIELD&value=TEXT)');
    const verdict = await verdictFilterOf(d.store, batch, v);
    if (!verdict.ok) return sendError(c, 400, 'RESQ_BAD_REQUEST', verdict.error);
    const page = await d.store.itemPage(batch.id, itemPageQuery(v, 50, verdict.filter));
    return sendJson(c, ItemPageSchema, page);
  });

  // The held items a bulk decision would take (the page's selection): filters as `resq answer --held` takes them.
  app.get('/api/batches/:batch/held', async (c) => {
    const q = HeldQuerySchema.safeParse(queryOf(c));
    if (!q.success) return badRequest(c, 'query', q.error);
    const batch = await d.store.findBatch(c.req.param('batch'));
    if (!batch) return notFound(c, c.req.param('batch'));
    const v = q.data;
    if (Boolean(v.meta) !== (v.value !== undefined)) return sendError(c, 400, 'RESQ_BAD_REQUEST', 'query: meta and value go together (meta=FIELD&value=TEXT)');
    const { selectHeld } = await import('../read/held-selection.js');
    try {
      const sel = await selectHeld(d.store, batch, {
        ...(v.tool?.trim() ? { tool: v.tool.trim() } : {}),
        ...(v.minCost !== undefined ? { minCost: v.minCost } : {}),
        ...(v.maxCost !== undefined ? { maxCost: v.maxCost } : {}),
        ...(v.meta ? { where: [{ key: `meta.${v.meta}`, value: v.value ?? '' }] } : {}),
        ...(v.q?.trim() ? { text: v.q.trim() } : {}),
      });
      const items = sel.items.slice(0, HELD_LISTED).map((it) => ({ id: it.id, runId: it.runId, tool: it.tool, cost: it.cost, untrustedCost: it.untrustedCost, holdReason: it.holdReason, question: cutText(it.question)!, meta: it.meta }));
      return sendJson(c, HeldSelectionSchema, { items, count: sel.items.length, totalCost: sel.totalCost });
    } catch (e) {
      if (e instanceof ResqError && e.code === 'RESQ_INPUT') return sendError(c, 400, 'RESQ_BAD_REQUEST', `query: ${e.message}`);
      throw e;
    }
  });

  app.get('/api/batches/:batch/items/:item', async (c) => {
    const batch = await d.store.findBatch(c.req.param('batch'));
    if (!batch) return notFound(c, c.req.param('batch'));
    const view = await itemViewOf(d.store, batch, c.req.param('item'), d.now(), d.db);
    if (!view) return sendError(c, 404, 'RESQ_NOT_FOUND', `batch "${batch.name}" has no item "${c.req.param('item')}"`);
    return sendJson(c, ItemViewSchema, view);
  });

  const svg = (body: string) => new Response(body, { headers: { 'Content-Type': 'image/svg+xml; charset=utf-8', 'Cache-Control': 'no-store' } });
  app.get('/api/batches/:batch/charts/states.svg', async (c) => {
    const batch = await d.store.findBatch(c.req.param('batch'));
    if (!batch) return notFound(c, c.req.param('batch'));
    return svg(stateBarSvg(batch.name, await d.store.itemCounts(batch.id)));
  });
  app.get('/api/batches/:batch/charts/runs.svg', async (c) => {
    const batch = await d.store.findBatch(c.req.param('batch'));
    if (!batch) return notFound(c, c.req.param('batch'));
    return svg(runsOverTimeSvg(await d.store.runMinutes(batch.id)));
  });

  app.get('/api/batches/:batch/events', async (c) => {
    const batch = await d.store.findBatch(c.req.param('batch'));
    if (!batch) return notFound(c, c.req.param('batch'));
    const keepAliveMs = d.keepAliveMs ?? 25_000;
    const enc = new TextEncoder();
    let sub: LiveSubscription | null = null;
    let timer: NodeJS.Timeout | null = null;
    const end = () => {
      sub?.stop();
      if (timer) clearInterval(timer);
    };
    const frame = (json: string) => enc.encode(`event: overview\ndata: ${json}\n\n`);
    const body = new ReadableStream<Uint8Array>(
      {
        start(ctl) {
          ctl.enqueue(enc.encode('retry: 3000\n\n'));
          // Only the newest overview waits while the reader is slow (the hub keeps it): an open page never makes the server hold more.
          sub = d.live.subscribe(batch, {
            ready: () => (ctl.desiredSize ?? 1) > 0,
            send: (json) => {
              try {
                ctl.enqueue(frame(json));
              } catch {
                end();
              }
            },
          });
          timer = setInterval(() => {
            try {
              if ((ctl.desiredSize ?? 1) > 0) ctl.enqueue(enc.encode(': keep-alive\n\n'));
            } catch {
              /* closed */
            }
          }, keepAliveMs);
        },
        pull() {
          sub?.drain();
        },
        cancel: end,
      },
      { highWaterMark: 2 },
    );
    c.req.raw.signal.addEventListener('abort', end);
    return new Response(body, { headers: { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' } });
  });

  app.get('/api/compare', async (c) => {
    const q = CompareQuerySchema.safeParse(queryOf(c));
    if (!q.success) return badRequest(c, 'query', q.error);
    const [a, b] = await Promise.all([d.store.findBatch(q.data.a), d.store.findBatch(q.data.b)]);
    if (!a) return notFound(c, q.data.a);
    if (!b) return notFound(c, q.data.b);
    const [{ compareSummary }, { regressionSummary }] = await Promise.all([import('../runner/compare.js'), import('../read/regressions.js')]);
    const s = await compareSummary(d.store, a, b, q.data.limit ?? 500);
    const verdicts = await regressionSummary(d.store, a, b, q.data.limit ?? 500);
    return sendJson(c, CompareResultSchema, { a: a.name, b: b.name, ...s, verdicts, listAll: commandHint(['resq', 'compare', a.name, b.name, '--json'], { db: d.db }) });
  });

  app.get('/metrics', async () => new Response(await metricsText(d.store, d.now()), { headers: { 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8', 'Cache-Control': 'no-store' } }));
}
