import { systemClock, type Clock } from '../clock.js';
import type { BatchRecord, ReadStore, ScoreStore } from '../store/index.js';
import { OverviewSchema } from './api-schemas.js';
import { readBatchStatus } from '../read/batch-status.js';

/** What the live hub needs: the store, the tick and a clock (tests pass their own). */
export interface LiveHubOptions {
  store: ReadStore & ScoreStore;
  /** Least time between two snapshots of a batch. @default 1000 */
  tickMs?: number;
  /** Time and the wait between ticks. @default systemClock */
  clock?: Clock;
  /** A tick that failed (the database went away): reported, the stream carries on. */
  onError?: (e: unknown) => void;
  /** The database `resq serve` was given: the overview's `next` carries it as `--db`. */
  db?: string;
}

/** One open page as the hub sees it: whether its reader can take an overview now, and how to hand it one. */
export interface LiveReader {
  /** False while the page's reader is behind (its stream's queue is full). */
  ready(): boolean;
  send(json: string): void;
}

/** A page's hold on a batch's overviews. */
export interface LiveSubscription {
  /** The reader caught up: hands it the newest overview it missed, if any. */
  drain(): void;
  /** Stops sending; the last page to stop stops the batch's poller. */
  stop(): void;
}

interface Subscriber {
  reader: LiveReader;
  /** The newest overview the reader was not ready for (older ones are dropped, never queued). */
  pending: string | null;
}

interface Entry {
  batch: BatchRecord;
  subscribers: Set<Subscriber>;
  last: string | null;
  /** Wakes the poller from its wait between ticks. */
  wake: AbortController;
  /** A tick was asked for (an answer from another machine) while one ran. */
  again: boolean;
  stopListening: (() => void) | null;
}

/** A tick may take at most this share of the time between ticks: a slow overview (a huge batch) is read less often. */
const TICK_SHARE = 0.1;

/** A reader that always takes what it is sent (a script, a test). */
const eager = (send: (json: string) => void): LiveReader => ({ ready: () => true, send });

/**
 * One poller per watched batch, shared by every open page: at most one overview a `tickMs`
 * (longer when reading it is slow: a tick never takes more than a tenth of the time), sent
 * only when it differs from the last one sent; a page whose reader is behind keeps only the
 * newest. On PostgreSQL an answer from any machine (NOTIFY) asks for a tick at once. A batch
 * nobody watches is not read.
 */
export class LiveHub {
  readonly #store: ReadStore & ScoreStore;
  readonly #tickMs: number;
  readonly #db: string | undefined;
  readonly #clock: Clock;
  readonly #onError: ((e: unknown) => void) | undefined;
  readonly #entries = new Map<string, Entry>();

  constructor(o: LiveHubOptions) {
    this.#store = o.store;
    this.#tickMs = o.tickMs ?? 1000;
    this.#db = o.db;
    this.#clock = o.clock ?? systemClock;
    this.#onError = o.onError;
  }

  /** Sends the reader every changed overview of the batch (the latest at once, if known) until the subscription stops. */
  subscribe(batch: BatchRecord, to: LiveReader | ((json: string) => void)): LiveSubscription {
    const sub: Subscriber = { reader: typeof to === 'function' ? eager(to) : to, pending: null };
    let e = this.#entries.get(batch.id);
    if (!e) {
      const entry: Entry = { batch, subscribers: new Set(), last: null, wake: new AbortController(), again: false, stopListening: null };
      this.#entries.set(batch.id, entry);
      entry.stopListening = this.#store.onAnswered?.(batch.id, () => this.#tickNow(entry)) ?? null;
      void this.#poll(entry);
      e = entry;
    } else if (e.last !== null) this.#offer(sub, e.last);
    e.subscribers.add(sub);
    const entry = e;
    return {
      drain: () => {
        if (sub.pending !== null && sub.reader.ready()) {
          const json = sub.pending;
          sub.pending = null;
          sub.reader.send(json);
        }
      },
      stop: () => {
        if (!entry.subscribers.delete(sub)) return;
        if (entry.subscribers.size === 0) this.#drop(entry);
      },
    };
  }

  /** Pages watching a batch now. */
  watchers(batchId: string): number {
    return this.#entries.get(batchId)?.subscribers.size ?? 0;
  }

  /** Batches being polled now (one poller each, however many pages watch). */
  pollers(): number {
    return this.#entries.size;
  }

  /** The most overviews waiting for any one page of the batch (a slow reader's newest: 0 or 1). */
  backlog(batchId: string): number {
    let most = 0;
    for (const s of this.#entries.get(batchId)?.subscribers ?? []) most = Math.max(most, s.pending === null ? 0 : 1);
    return most;
  }

  #offer(sub: Subscriber, json: string): void {
    if (sub.reader.ready()) {
      sub.pending = null;
      sub.reader.send(json);
    } else sub.pending = json;
  }

  #tickNow(e: Entry): void {
    e.again = true;
    e.wake.abort();
  }

  #drop(e: Entry): void {
    this.#entries.delete(e.batch.id);
    e.wake.abort();
    e.stopListening?.();
  }

  #watched(e: Entry): boolean {
    return this.#entries.get(e.batch.id) === e;
  }

  /** The batch's one poller: a tick, then a wait of at least `tickMs` that an answer cuts short, until nobody watches. */
  async #poll(e: Entry): Promise<void> {
    while (this.#watched(e)) {
      e.again = false;
      const t0 = this.#clock.now();
      try {
        const json = JSON.stringify(OverviewSchema.parse(await readBatchStatus(this.#store, e.batch, { nowMs: this.#clock.now(), hint: { db: this.#db } })));
        if (json !== e.last && this.#watched(e)) {
          e.last = json;
          for (const s of e.subscribers) this.#offer(s, json);
        }
      } catch (err) {
        this.#onError?.(err);
      }
      if (!this.#watched(e) || e.again) continue;
      if (e.wake.signal.aborted) e.wake = new AbortController();
      await this.#clock.sleep(Math.max(this.#tickMs, (this.#clock.now() - t0) / TICK_SHARE), e.wake.signal);
    }
  }

  /** Stops every poller. */
  close(): void {
    for (const e of [...this.#entries.values()]) this.#drop(e);
  }
}
