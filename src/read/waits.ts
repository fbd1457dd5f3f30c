import type { ItemState } from '../store/item-states.js';
import type { ReadStore, ThreadWaits } from '../store/port.js';
import type { BatchRecord } from '../store/types.js';
import { commandHint, type HintPlace } from '../text/command-hint.js';
import type { ItemWait, WaitGroup, WaitingItem, WaitReason } from './wait-schema.js';

/** How many queued items each reason names (the rest are counted). */
export const WAITING_NAMED = 5;

/** What, beyond its thread, decides whether a queued item can start now. */
export interface WaitContext {
  /** The batch was cancelled: nothing queued is sent. */
  cancelled: boolean;
  /** Workers carrying the batch now. */
  liveWorkers: number;
  /** Runs in flight over every worker, against `cap`. */
  inFlight: number;
  /** The batch's cap now: its concurrency, or the lower adaptive cap after HTTP 429. */
  cap: number;
  /** The `--limit` of the worker whose summary this is, when it had one. */
  limit?: number | undefined;
}

/** Reasons an item cannot get past until a person acts: the ETA leaves these items out. */
const FOR_PERSON: readonly WaitReason[] = ['thread-held', 'cancelled', 'limit', 'no-worker'];

/** The thread reason for waiting behind an item in `state`. */
function threadReason(state: ItemState): WaitReason {
  return state === 'held' ? 'thread-held' : state === 'queued' ? 'thread-queued' : 'thread-running';
}

/**
 * Why a queued item waits: the one answer every window gives. Behind an unfinished earlier
 * item of its thread (`thread`, from the store's threadWaits) first, as the claim passes it
 * over whatever else holds; else the batch cancelled, no live worker (left by `--limit` when
 * the ending worker had one), every slot of the cap taken, or ready for the next claim.
 */
export function waitReason(ctx: WaitContext, thread: Pick<WaitingItem, 'behindState'> | null): WaitReason {
  if (thread?.behindState) return threadReason(thread.behindState);
  if (ctx.cancelled) return 'cancelled';
  if (ctx.liveWorkers === 0) return ctx.limit !== undefined ? 'limit' : 'no-worker';
  return ctx.inFlight >= ctx.cap ? 'cap' : 'ready';
}

/** `q302, q303 wait for q301 (held) in thread T; q305 waits for q304 (running) in thread u`. */
function behindWords(first: readonly WaitingItem[]): string {
  const by = new Map<string, WaitingItem[]>();
  for (const w of first) by.set(w.behindId ?? '', [...(by.get(w.behindId ?? '') ?? []), w]);
  return [...by.values()]
    .map((ws) => `${ws.map((w) => w.id).join(', ')} wait${ws.length === 1 ? 's' : ''} for ${ws[0]!.behindId} (${ws[0]!.behindState}) in thread ${ws[0]!.threadKey}`)
    .join('; ');
}

/** The head of a group's words: `2 queued behind held items of their thread`. */
function groupHead(reason: WaitReason, n: number, ctx: WaitContext): string {
  switch (reason) {
    case 'thread-held':
      return `${n} queued behind held items of their thread`;
    case 'thread-running':
      return `${n} queued behind running items of their thread`;
    case 'thread-queued':
      return `${n} queued behind earlier queued items of their thread`;
    case 'cancelled':
      return `${n} queued in a cancelled batch, not to be sent`;
    case 'limit':
      return `${n} queued left by --limit ${ctx.limit}`;
    case 'no-worker':
      return `${n} queued with no worker running`;
    case 'cap':
      return `${n} queued behind the cap (${ctx.inFlight} in flight of ${ctx.cap})`;
    case 'ready':
      return `${n} queued, ready for a worker's next claim`;
  }
}

/** One reason's group: its words name the first few (and what they wait behind). */
function groupOf(reason: WaitReason, count: number, first: WaitingItem[], ctx: WaitContext): WaitGroup {
  const named = reason.startsWith('thread-') ? behindWords(first) : first.map((w) => w.id).join(', ');
  const more = count > first.length ? ` and ${count - first.length} more` : '';
  return { reason, count, forPerson: FOR_PERSON.includes(reason), first, text: `${groupHead(reason, count, ctx)}${named ? `: ${named}${more}` : ''}` };
}

/**
 * The queued items by why they wait, from the store's reads: `queued` in all, the first
 * queued ones in file order (at least as many as `threads.first` was read with, so each of them
 * behind its thread is among `threads.first`), and the thread waits. A reason none has is left out.
 */
export function waitGroups(queued: number, firstQueued: readonly { id: string; threadKey: string | null }[], threads: ThreadWaits, ctx: WaitContext): WaitGroup[] {
  const inThread = new Map(threads.first.map((t) => [t.id, t]));
  const groups: WaitGroup[] = [];
  let behindThread = 0;
  for (const reason of ['thread-held', 'thread-running', 'thread-queued'] as const) {
    const count = Object.entries(threads.byState).reduce((n, [state, k]) => (threadReason(state as ItemState) === reason ? n + (k ?? 0) : n), 0);
    behindThread += count;
    const first = threads.first.filter((t) => threadReason(t.behindState) === reason).slice(0, WAITING_NAMED);
    if (count > 0) groups.push(groupOf(reason, count, first, ctx));
  }
  // Counts and lists are read one after another: a race may make the rest negative for a moment.
  const rest = Math.max(0, queued - behindThread);
  const first = firstQueued
    .filter((q) => !inThread.has(q.id))
    .slice(0, WAITING_NAMED)
    .map((q) => ({ id: q.id, threadKey: q.threadKey, behindId: null, behindState: null }));
  if (rest > 0) groups.push(groupOf(waitReason(ctx, null), rest, first.slice(0, rest), ctx));
  return groups;
}

/**
 * Queued items behind their thread that cannot start until a person acts (behind a held item),
 * from the thread waits' counts alone: what a live worker's own ETA leaves out.
 */
export function forPersonBehindThreads(threads: Pick<ThreadWaits, 'byState'>): number {
  return Object.entries(threads.byState).reduce((n, [state, k]) => (FOR_PERSON.includes(threadReason(state as ItemState)) ? n + (k ?? 0) : n), 0);
}

/** Queued items the ETA leaves out: they cannot start until a person acts. */
export function forPersonCount(groups: readonly WaitGroup[]): number {
  return groups.reduce((n, g) => n + (g.forPerson ? g.count : 0), 0);
}

/** Reads and groups the batch's queued items by why they wait (nothing is read when none is queued). */
export async function readWaitGroups(store: ReadStore, batch: BatchRecord, queued: number, ctx: WaitContext): Promise<WaitGroup[]> {
  if (queued === 0) return [];
  // As many queued items as thread waits: every listed queued item behind its thread is among them.
  const many = WAITING_NAMED * 4;
  const [firstQueued, threads] = await Promise.all([store.listItems(batch.id, { states: ['queued'], limit: many }), store.threadWaits(batch.id, many)]);
  return waitGroups(queued, firstQueued, threads, ctx);
}

/** Why one queued item waits, in words, with the command that shows what it waits behind. */
export function itemWaitOf(batch: Pick<BatchRecord, 'name'>, item: { id: string; threadKey: string | null }, thread: ThreadWaits['first'][number] | null, ctx: WaitContext, hint: HintPlace = {}): ItemWait {
  const reason = waitReason(ctx, thread);
  const base = { id: item.id, threadKey: item.threadKey, behindId: thread?.behindId ?? null, behindState: thread?.behindState ?? null, reason, forPerson: FOR_PERSON.includes(reason) };
  const behind = thread ? `behind ${thread.behindId} (${thread.behindState}) in its thread ${thread.threadKey}` : '';
  const see = thread ? commandHint(['resq', 'show', batch.name, thread.behindId], hint) : '';
  const text = {
    'thread-held': `waits ${behind}: it starts once a person answers ${thread?.behindId} and it ends (see ${see})`,
    'thread-running': `waits ${behind}: it starts once that item ends (see ${see})`,
    'thread-queued': `waits ${behind}: it starts after that item ends (see ${see})`,
    cancelled: 'the batch was cancelled: it will not be sent',
    limit: `left queued by --limit ${ctx.limit}: ${commandHint(['resq', 'resume', batch.name], hint)} goes on`,
    'no-worker': `waits for a worker: ${commandHint(['resq', 'resume', batch.name], hint)} runs it`,
    cap: `waits for a slot: ${ctx.inFlight} in flight of the cap ${ctx.cap}`,
    ready: 'ready: a live worker starts it at its next claim',
  }[reason];
  return { ...base, text };
}

/** Why a queued item of the batch waits, read now. */
export async function readItemWait(store: ReadStore, batch: BatchRecord, item: { id: string; threadKey: string | null }, ctx: WaitContext, hint: HintPlace = {}): Promise<ItemWait> {
  const thread = item.threadKey === null ? null : ((await store.threadWaits(batch.id, 1, { itemId: item.id })).first[0] ?? null);
  return itemWaitOf(batch, item, thread, ctx, hint);
}
