import pg from 'pg';

/** The channel a person's answer is announced on (payload: the batch id). */
export const ANSWERED_CHANNEL = 'resq_answered';

/** How long to wait before listening again after the connection broke (the runner polls meanwhile). */
const RECONNECT_MS = 2000;

/**
 * One connection of its own (not the pool's) LISTENing on `resq_answered`, shared by every
 * batch the store watches: a person's answer (`resq answer` on any machine) wakes the worker
 * at once. One connect at a time however many subscribe; a broken connection is an event,
 * never an unhandled error, and is replaced while anyone listens; the last unsubscribe and
 * close end it. A missed notification only delays the pick-up to the runner's regular poll.
 */
export class AnswersListener {
  readonly #url: string;
  readonly #subs = new Map<string, Set<() => void>>();
  #client: pg.Client | null = null;
  #connecting: Promise<void> | null = null;
  #timer: NodeJS.Timeout | null = null;
  #closed = false;

  constructor(url: string) {
    this.#url = url;
  }

  /** Calls `cb` when an item of `batchId` is answered; returns what stops it. */
  subscribe(batchId: string, cb: () => void): () => void {
    let set = this.#subs.get(batchId);
    if (!set) this.#subs.set(batchId, (set = new Set()));
    set.add(cb);
    this.#ensure();
    return () => {
      set.delete(cb);
      if (set.size === 0) this.#subs.delete(batchId);
      if (this.#subs.size === 0) void this.#disconnect();
    };
  }

  /** Resolves once the connection is listening (tests wait on it before answering). */
  async ready(): Promise<void> {
    await this.#connecting;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#subs.clear();
    await this.#disconnect();
  }

  #ensure(): void {
    if (this.#client || this.#connecting || this.#closed) return;
    this.#connecting = this.#connect().finally(() => {
      this.#connecting = null;
    });
  }

  async #connect(): Promise<void> {
    const c = new pg.Client({ connectionString: this.#url, application_name: 'resq-listen' });
    c.on('notification', (m) => {
      if (m.channel !== ANSWERED_CHANNEL || !m.payload) return;
      for (const cb of this.#subs.get(m.payload) ?? []) cb();
    });
    c.on('error', () => this.#broken(c));
    c.on('end', () => this.#broken(c));
    try {
      await c.connect();
      await c.query(`LISTEN ${ANSWERED_CHANNEL}`);
    } catch {
      this.#broken(c);
      return;
    }
    if (this.#closed || this.#subs.size === 0) {
      await c.end().catch(() => {});
      return;
    }
    this.#client = c;
  }

  /** The connection broke: forget it and listen again a little later, while anyone listens. */
  #broken(c: pg.Client): void {
    if (this.#client === c) this.#client = null;
    c.end().catch(() => {});
    if (this.#closed || this.#subs.size === 0 || this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      if (this.#subs.size > 0) this.#ensure();
    }, RECONNECT_MS);
    this.#timer.unref();
  }

  async #disconnect(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    await this.#connecting;
    const c = this.#client;
    this.#client = null;
    if (c) await c.end().catch(() => {});
  }
}
