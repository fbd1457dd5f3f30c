import { readScoreRates } from '../read/score-rates.js';
import type { ScoreRate } from '../read/status-schema.js';
import type { BatchRecord, ItemState, OutboxClaim, ReadStore, ScoreStore } from '../store/index.js';
import { FAILED_STATES } from '../store/item-states.js';
import type { NotifySettings } from '../store/notify-settings.js';
import { commandHint, type HintPlace } from '../text/command-hint.js';

// The documents receivers get: small JSON, one per event, each with a stable `id` (receivers
// deduplicate by it: an event may come twice after a sender died between sending and marking).
// No answer text, no question text or meta unless the batch asked for it, never a key.

/** The event types resq sends. */
export const EVENT_TYPES = ['items.held', 'batch.finished', 'batch.stalled', 'budget.reached'] as const;

/** A held item as an `items.held` event lists it. */
export interface HeldItemDoc {
  id: string;
  tool: string | null;
  cost: number | null;
  /** The cost as the service sent it, marked, when it is untrusted (then `cost` is null). */
  untrustedCost?: string;
  reason: string | null;
  heldAt: string;
  link: string | null;
  /** Only with `--notify-include question`. */
  question?: string;
  meta?: Record<string, unknown>;
}

/** One event as sent. */
export interface EventDoc {
  id: string;
  type: (typeof EVENT_TYPES)[number] | string;
  createdAt: string;
  batch: { id: string; name: string };
  counts: Record<ItemState, number>;
  link: string | null;
  /** The command to run about it, pasteable (quoted, with `--db`): `resq resume NAME` for a batch stalled with no live worker, else `resq status NAME`. */
  hint: string;
  /** `items.held`: the items, and whether this is a reminder of items still held. */
  items?: HeldItemDoc[];
  reminder?: boolean;
  /** `batch.finished`. */
  approvedCost?: number;
  failures?: Record<string, number>;
  /** `batch.finished`: each scorer's passed, failed, unscored and pass rate with its 95% interval (as `resq status --json` gives them); empty when none judges the batch. */
  scores?: ScoreRate[];
  /** `batch.stalled`. */
  reason?: string;
  since?: string | null;
  /** `budget.reached`. */
  share?: number;
  budget?: number;
  approved?: number;
}

/** The page's links: the batch by name, an item by batch and id (never a token). */
export function pageLinks(pageUrl: string | null, batchName: string) {
  const base = pageUrl ? `${pageUrl.replace(/\/+$/, '')}/b/${encodeURIComponent(batchName)}` : null;
  return { batch: base, item: (id: string) => (base ? `${base}/i/${encodeURIComponent(id)}` : null) };
}

/** The event's id: the batch's id and the event's key in it (stable across tries and senders). */
export function eventId(c: Pick<OutboxClaim, 'batchId' | 'key'>): string {
  return `${c.batchId}.${c.key}`;
}

/** The command an event suggests: resume for a batch stalled with no live worker, else status (with `--db` of the sender's database). */
export function eventHint(batch: Pick<BatchRecord, 'name'>, c: Pick<OutboxClaim, 'type' | 'data'>, place: Pick<HintPlace, 'db'>): string {
  const resume = c.type === 'batch.stalled' && c.data.reason === 'no live worker';
  return commandHint(['resq', resume ? 'resume' : 'status', batch.name], place);
}

/** Builds the document of a claimed event from the store as it is now; `place`: the sender's database, for the hint's `--db`. */
export async function buildEvent(store: ReadStore & Pick<ScoreStore, 'scorersJudged' | 'scoreTotals'>, batch: BatchRecord, n: NotifySettings, c: OutboxClaim, place: Pick<HintPlace, 'db'> = {}): Promise<EventDoc> {
  const links = pageLinks(n.pageUrl, batch.name);
  const doc: EventDoc = {
    id: eventId(c),
    type: c.type,
    createdAt: new Date(c.createdAt).toISOString(),
    batch: { id: batch.id, name: batch.name },
    counts: await store.itemCounts(batch.id),
    link: links.batch,
    hint: eventHint(batch, c, place),
  };
  if (c.type === 'items.held') {
    doc.reminder = c.data.reminder === true;
    doc.items = [];
    for (const h of c.held) {
      const it: HeldItemDoc = { id: h.itemId, tool: h.tool, cost: h.cost, ...(h.untrustedCost === null ? {} : { untrustedCost: h.untrustedCost }), reason: h.reason, heldAt: new Date(h.heldAt).toISOString(), link: links.item(h.itemId) };
      if (n.includeQuestion) {
        const rec = await store.getItem(batch.id, h.itemId);
        if (rec) Object.assign(it, { question: rec.question, meta: rec.meta });
      }
      doc.items.push(it);
    }
  } else if (c.type === 'batch.finished') {
    doc.approvedCost = await store.approvedCost(batch.id);
    doc.failures = {};
    for (const it of await store.listItems(batch.id, { states: FAILED_STATES })) {
      const code = it.errorCode ?? it.state;
      doc.failures[code] = (doc.failures[code] ?? 0) + 1;
    }
    doc.scores = await readScoreRates(store, batch);
  } else if (c.type === 'batch.stalled') {
    doc.reason = String(c.data.reason ?? 'no progress');
    doc.since = typeof c.data.since === 'string' ? c.data.since : null;
  } else if (c.type === 'budget.reached') {
    doc.share = Number(c.data.share);
    doc.budget = Number(c.data.budget);
    doc.approved = Number(c.data.approved);
  }
  return doc;
}
