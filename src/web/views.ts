import { hostname } from 'node:os';
import { isGoneHere } from '../runner/local-process.js';
import type { BatchOverview } from '../store/port.js';
import type { BatchRecord, FileRecord, FileStore, ReadStore } from '../store/index.js';
import type { BatchCard, FileView, ItemView, Overview } from './api-schemas.js';
import { renderMarkdown } from './markdown.js';

/** How long a worker may go without a heartbeat and still count as live. */
export const STALE_MS = 60_000;

/** The batches page's line of one batch. */
export function batchCard(o: BatchOverview): BatchCard {
  const b = o.batch;
  return {
    id: b.id,
    name: b.name,
    kind: b.kind,
    createdAt: b.createdAt,
    cancelledAt: b.cancelledAt,
    total: b.totalItems,
    counts: o.counts,
    approvedCost: o.approvedCost,
    files: o.files,
    liveWorkers: o.workers.filter((w) => !isGoneHere(w)).length,
  };
}

/** The batch page's live overview: counts, in flight against the cap, workers, held queue, rate and ETA. */
export async function overviewOf(store: ReadStore, batch: BatchRecord, nowMs: number, heldLimit = 50): Promise<Overview> {
  const [o, live] = await Promise.all([store.overview(batch.id, nowMs, STALE_MS), store.batchLive(batch.id, heldLimit)]);
  const c = o.counts;
  const unfinished = c.queued + c.submitting + c.running + c.waiting;
  const { first, last } = live.span;
  const n = c.completed + c.failed + c.error + c.cancelled;
  const spanS = first && last ? (Date.parse(last) - Date.parse(first)) / 1000 : 0;
  // Finishes per second between the first and the last one.
  const ratePerS = n > 1 && spanS > 0 ? (n - 1) / spanS : null;
  return {
    ...batchCard(o),
    concurrency: batch.settings.concurrency,
    inFlight: live.inFlight,
    capLimit: live.capLimit,
    workers: o.workers.map((w) => ({ id: w.id, host: w.host, pid: w.pid, gone: isGoneHere(w), startedAt: w.startedAt, heartbeatAt: w.heartbeatAt, items: w.items })),
    held: live.held,
    ratePerS: ratePerS === null ? null : Number(ratePerS.toFixed(3)),
    etaS: ratePerS && unfinished > 0 ? Math.round(unfinished / ratePerS) : unfinished === 0 ? 0 : null,
  };
}

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** The media type of a file without parameters, else one guessed from its name's extension. */
export function fileType(f: Pick<FileRecord, 'mediaType' | 'name' | 'path'>): string {
  const declared = f.mediaType?.split(';')[0]?.trim().toLowerCase();
  if (declared && declared !== 'application/octet-stream') return declared;
  const ext = /\.([a-z0-9]+)$/i.exec(f.name ?? f.path ?? '')?.[1]?.toLowerCase();
  const byExt: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', svg: 'image/svg+xml', md: 'text/markdown', csv: 'text/csv', txt: 'text/plain', json: 'application/json' };
  return (ext && byExt[ext]) || declared || 'application/octet-stream';
}

/** How the page shows a file: images inline (SVG only as <img>), text kinds as text, the rest as a download. */
export function fileView(f: Pick<FileRecord, 'mediaType' | 'name' | 'path'>): FileView {
  const t = fileType(f);
  if (IMAGE_TYPES.has(t)) return 'image';
  if (t === 'image/svg+xml') return 'svg';
  if (t === 'text/markdown') return 'markdown';
  if (t === 'text/csv') return 'csv';
  if (t === 'text/plain' || t === 'application/json' || t === 'chemical/x-pdb') return 'text';
  return 'download';
}

/** Whether a file is on this machine's disk (the host that downloaded it is this one). */
export function isHere(f: Pick<FileRecord, 'status' | 'path' | 'host'>): boolean {
  return f.status === 'downloaded' && f.path !== null && (f.host === null || f.host === hostname());
}

/** One item in full for its page: the answer rendered, every run, every pause with its decision, every file. */
export async function itemViewOf(store: ReadStore & FileStore, batch: BatchRecord, itemId: string): Promise<ItemView | null> {
  const item = await store.getItem(batch.id, itemId);
  if (!item) return null;
  const [runs, decisions, files] = await Promise.all([store.runChain(batch.id, itemId), store.decisionsForItem(batch.id, itemId), store.filesForItem(batch.id, itemId)]);
  const byRun = new Map(decisions.map((d) => [d.runId, d]));
  return {
    batch: { id: batch.id, name: batch.name },
    item: {
      id: item.id,
      seq: item.seq,
      line: item.line,
      state: item.state,
      question: item.question,
      meta: item.meta,
      threadKey: item.threadKey,
      threadId: item.threadId,
      runStatus: item.runStatus,
      error: item.error,
      holdReason: item.holdReason,
      startedAt: item.startedAt,
      finishedAt: item.finishedAt,
      attempt: item.attempt,
    },
    answerHtml: item.text === null ? null : renderMarkdown(item.text),
    answerText: item.text,
    runs: runs.map((r) => ({ id: r.id, step: r.step, status: r.status, createdAt: r.createdAt, finishedAt: r.finishedAt, pausedOn: r.requiredAction?.tool ?? null })),
    pauses: runs
      .filter((r) => r.requiredAction)
      .map((r) => {
        const d = byRun.get(r.id);
        return {
          runId: r.id,
          tool: r.requiredAction!.tool,
          input: r.requiredAction!.input,
          decision: d ? { answer: d.answer, by: d.by, person: d.person ?? null, reason: d.reason, decidedAt: d.decidedAt, cost: d.cost } : null,
        };
      }),
    files: files.map((f) => ({
      id: f.id,
      name: f.name,
      role: f.role,
      mediaType: f.mediaType,
      status: f.status,
      host: f.host,
      bytes: f.bytes,
      expiresAt: f.expiresAt,
      here: isHere(f),
      view: fileView(f),
    })),
  };
}
