import type { BatchRecord, ReadStore } from '../store/index.js';
import { OverviewSchema } from './api-schemas.js';
import { overviewOf } from './views.js';

/** What the live hub needs: the store, the tick and a clock (tests pass their own). */
export interface LiveHubOptions {
  store: ReadStore;
  /** Least time between two snapshots of a batch. @default 1000 */
  tickMs?: number;
  now?: () => number;
  /** A tick that failed (the database went away): reported, the stream carries on. */
  onError?: (e: unknown) => void;
}

interface Entry {
  batch: BatchRecord;
  subscribers: Set<(json: string) => void>;
  last: string | null;
  timer: NodeJS.Timeout | null;
  busy: boolean;
  /** A tick was asked for while one ran (an answer from another machine). */
  again: boolean;
  stopListening: (() => void) | null;
}

/** A tick may take at most this share of the time between ticks: a slow overview (a huge batch) is read less often. */
const TICK_SHARE = 0.1;

/**
 * One poller per watched batch, shared by every open page: at most one overview a `tickMs`
 * (longer when reading it is slow: a tick never takes more than a tenth of the time), sent
 * only when it differs from the last one sent. On PostgreSQL an answer from any machine
 * (NOTIFY) asks for a tick at once. A batch nobody watches is not read.
 */
export class LiveHub {
  readonly #o: Required<Omit<LiveHubOptions, 'onError'>> & Pick<LiveHubOptions, 'onError'>;
  readonly #entries = new Map<string, Entry>();

  constructor(o: LiveHubOptions) {
    this.#o = { tickMs: 1000, now: Date.now, ...o };
  }

  /** Sends `send` every changed overview of the batch (the latest at once, if known) until the returned function is called. */
  subscribe(batch: BatchRecord, send: (json: string) => void): () => void {
    let e = this.#entries.get(batch.id);
    if (!e) {
      e = { batch, subscribers: new Set(), last: null, timer: null, busy: false, again: false, stopListening: null };
      this.#entries.set(batch.id, e);
      const entry = e;
      entry.stopListening = this.#o.store.onAnswered?.(batch.id, () => void this.#tick(entry)) ?? null;
      void this.#tick(entry);
    } else if (e.last !== null) send(e.last);
    e.subscribers.add(send);
    const entry = e;
    return () => {
      entry.subscribers.delete(send);
      if (entry.subscribers.size === 0) this.#drop(entry);
    };
  }

  /** Pages watching a batch now. */
  watchers(batchId: string): number {
    return this.#entries.get(batchId)?.subscribers.size ?? 0;
  }

  #drop(e: Entry): void {
    if (e.timer) clearTimeout(e.timer);
    e.timer = null;
    e.stopListening?.();
    this.#entries.delete(e.batch.id);
  }

  async #tick(e: Entry): Promise<void> {
    if (e.busy) {
      e.again = true;
      return;
    }
    e.busy = true;
    if (e.timer) clearTimeout(e.timer);
    const t0 = performance.now();
    try {
      const json = JSON.stringify(OverviewSchema.parse(await overviewOf(this.#o.store, e.batch, this.#o.now())));
      if (json !== e.last && this.#entries.get(e.batch.id) === e) {
        e.last = json;
        for (const s of e.subscribers) s(json);
      }
    } catch (err) {
      this.#o.onError?.(err);
    } finally {
      e.busy = false;
    }
    if (this.#entries.get(e.batch.id) !== e) return;
    const next = Math.max(this.#o.tickMs, (performance.now() - t0) / TICK_SHARE);
    e.timer = setTimeout(() => void this.#tick(e), next);
    if (e.again) {
      e.again = false;
      void this.#tick(e);
    }
  }

  /** Stops every poller. */
  close(): void {
    for (const e of [...this.#entries.values()]) this.#drop(e);
  }
}
