import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { type Clock, sleep, systemClock } from '../clock.js';
import type { BatchRecord, BatchStore, OutboxClaim, OutboxStore, ReadStore, ScoreStore, WorkerStore } from '../store/index.js';
import { UNFINISHED_STATES } from '../store/item-states.js';
import type { NotifySettings } from '../store/notify-settings.js';
import { deliver, receiverName, receiversOf, receiverTag } from './deliver.js';
import { judgingUnderWay } from '../score/judge-batch.js';
import { buildEvent, eventId } from './events.js';
import { SIGNATURE_HEADER, signatureHeader } from './sign.js';
import { slackText } from './slack.js';

/** The store roles a sender uses. */
export type NotifierStore = OutboxStore & ReadStore & Pick<BatchStore, 'findBatch' | 'listBatches'> & Pick<WorkerStore, 'liveWorkers'> & Pick<ScoreStore, 'scorersJudged' | 'scoreTotals'>;

/** How soon a `batch.finished` held back for its agent judge looks again. */
const JUDGING_RECHECK_MS = 1000;

/** Options of {@link Notifier}. */
export interface NotifierOptions {
  store: NotifierStore;
  /** The batch a worker carries; null: every batch with receivers (`resq serve`). */
  batchId: string | null;
  /** RESQ_NOTIFY_SECRET: requests are signed with it (never stored, never sent). */
  secret?: string | null;
  /**
   * The notify command this process was given on its own command line (`--notify-command`):
   * run for each event it sends, never stored (the store keeps only that a sender with one
   * serves the batch, and other senders leave the batch's events to it meanwhile). A command
   * found in the store is never run. @default null
   */
  command?: string | null;
  /**
   * The sender's own clock: its waits, a signature's time and the stall check. Every lease and
   * time the store keeps (claims, holds, digests) is the store's clock — the database's, on
   * PostgreSQL — so senders on machines whose clocks disagree share one time.
   */
  clock?: Clock;
  /** How often the loop looks for due events. @default 2000 */
  pollMs?: number;
  /** How long a claim holds an event (longer than a delivery's timeout). @default 60000 */
  leaseMs?: number;
  /** A receiver's time to answer. @default 10000 */
  timeoutMs?: number;
  /** The first retry's delay; doubling to `retryMaxMs`, with jitter. @default 2000 */
  retryBaseMs?: number;
  /** @default 600000 */
  retryMaxMs?: number;
  /** A worker with no heartbeat this long is not live (batch.stalled's reason). @default 60000 */
  staleMs?: number;
  /** The database this process was given: the events' `hint` carries it as `--db`. @default the default database */
  db?: string;
  /** A delivery failed or the store could not be read: said once per problem; must not throw. */
  onProblem?: (message: string) => void;
}

/**
 * The sender of a batch's events (or every batch's, in `resq serve`): a background loop that
 * folds held items into digests, notes a stall, claims due events from the outbox, sends each
 * to every receiver (signed when a secret is set) and marks it sent, or leaves it to be tried
 * again later. It never throws into its owner and never waits on the batch: a slow or failing
 * receiver only delays its own event.
 */
export class Notifier {
  readonly owner = `${hostname()}:${process.pid}:notify:${randomUUID().slice(0, 8)}`;
  /** Batches whose events this sender's command is recorded as taking (ended by {@link finish}). */
  readonly #holding = new Set<string>();
  readonly #o: NotifierOptions;
  readonly #clock: Clock;
  readonly #stop = new AbortController();
  /** Cuts the deliveries under way: only when a leaving worker's time is up. */
  readonly #cut = new AbortController();
  #loop: Promise<void> | null = null;
  #lastProblem = '';

  constructor(o: NotifierOptions) {
    this.#o = o;
    this.#clock = o.clock ?? systemClock;
  }

  /** Starts the background loop (once). */
  start(): void {
    this.#loop ??= (async () => {
      while (!this.#stop.signal.aborted) {
        // Stopping ends the wait, never a delivery under way (cut, a request the receiver took
        // would go again): that is cut only when a leaving worker's time is up (finish).
        await this.tick(this.#cut.signal).catch((e: unknown) => this.#problem(`notifications: ${(e as Error).message}`));
        await this.#clock.sleep(this.#o.pollMs ?? 2_000, this.#stop.signal);
      }
    })();
  }

  /**
   * Stops the loop, then sends what is due for up to `graceMs` (a worker leaving delivers what it
   * caused; its held items go out in a digest now). What is not sent by then stays in the outbox
   * for the next sender. A delivery under way when it is called is let go on until then, not cut
   * at once: a cut request the receiver took would be sent again.
   */
  async finish(graceMs = 5_000): Promise<void> {
    this.#stop.abort();
    const deadline = this.#cut;
    const timer = setTimeout(() => deadline.abort(), graceMs);
    try {
      await this.#loop;
      let first = true;
      while (!deadline.signal.aborted) {
        const n = await this.tick(this.#cut.signal, first).catch((e: unknown) => {
          this.#problem(`notifications: ${(e as Error).message}`);
          return -1;
        });
        first = false;
        if (n > 0) continue;
        // Nothing due now: a worker waits (within the bound) for a failed event's next try.
        if (n < 0 || this.#o.batchId === null || (await this.#undelivered()) === 0) break;
        await sleep(Math.min(250, graceMs), deadline.signal);
      }
    } finally {
      clearTimeout(timer);
      await this.#release();
    }
  }

  /** The other senders take the batch's events again at once: this one's command is leaving. */
  async #release(): Promise<void> {
    for (const batchId of this.#holding) await this.#o.store.holdNotifyCommand(batchId, this.#me(), 0).catch(() => undefined);
    this.#holding.clear();
  }

  #me(): { owner: string; host: string; pid: number } {
    return { owner: this.owner, host: hostname(), pid: process.pid };
  }

  async #undelivered(): Promise<number> {
    try {
      return (await this.#o.store.outboxState(this.#o.batchId!)).undelivered;
    } catch {
      return 0;
    }
  }

  /** One pass: digests, stalls, then the due events claimed and sent. Returns how many were claimed. */
  async tick(signal?: AbortSignal, foldNow = false): Promise<number> {
    const { store } = this.#o;
    const batches = await this.#batches();
    const now = this.#clock.now();
    for (const [b, n] of batches) {
      await store.collateHeld(b.id, { digestMs: foldNow ? 0 : n.digestMs, remindMs: n.remindMs });
      if (n.stalledMs !== null) await this.#noteStall(b, n.stalledMs, now);
    }
    if (batches.size === 0 && this.#o.batchId === null) return 0;
    const byId = new Map([...batches.keys()].map((b) => [b.id, b]));
    const claims = await store.claimOutbox(this.owner, { leaseMs: this.#o.leaseMs ?? 60_000, limit: 20, batchIds: [...byId.keys()] });
    await Promise.all(claims.map((c) => this.#send(c, byId.get(c.batchId)!, signal)));
    return claims.length;
  }

  /**
   * The batches this pass sends for, with their settings. A sender with a command records that
   * it takes the batch's events (renewed each pass, for a claim's lease); one without leaves a
   * batch to such a sender while it lives, so the command misses no event to a sender that
   * cannot run it (`resq serve` never can).
   */
  async #batches(): Promise<Map<BatchRecord, NotifySettings>> {
    const { store, batchId } = this.#o;
    const list = batchId === null ? await store.listBatches() : [await store.findBatch(batchId)];
    const out = new Map<BatchRecord, NotifySettings>();
    for (const b of list) {
      if (!b?.settings.notify) continue;
      if (this.#o.command) {
        await store.holdNotifyCommand(b.id, this.#me(), this.#o.leaseMs ?? 60_000);
        this.#holding.add(b.id);
      } else if ((await store.notifyCommands(b.id)).length > 0) continue;
      out.set(b, b.settings.notify);
    }
    return out;
  }

  async #noteStall(b: BatchRecord, stalledMs: number, now: number): Promise<void> {
    const { store } = this.#o;
    const counts = await store.itemCounts(b.id);
    const unfinished = UNFINISHED_STATES.reduce((s, k) => s + counts[k], 0);
    if (unfinished === 0) return;
    const st = await store.outboxState(b.id);
    const since = st.lastChangeAt ?? b.createdAt;
    if (now - Date.parse(since) < stalledMs) return;
    const live = await store.liveWorkers(b.id, this.#o.staleMs ?? 60_000);
    const reason = counts.held === unfinished ? 'every item held' : live.length === 0 ? 'no live worker' : 'no progress at the service (refusing or not answering)';
    await store.addOutboxEvent(b.id, { key: `stalled:${since}`, type: 'batch.stalled', data: { reason, since } });
  }

  async #send(c: OutboxClaim, b: BatchRecord, signal?: AbortSignal): Promise<void> {
    const { store } = this.#o;
    const n = b.settings.notify!;
    try {
      // The batch's answers are over but its agent judge is still judging them: its pass rates wait for the verdicts.
      if (c.type === 'batch.finished' && (await judgingUnderWay(store, b, this.#o.staleMs ?? 60_000))) {
        await store.settleOutbox(c, { sent: false, error: `${c.type} ${eventId(c)}: waiting for the agent judge's verdicts`, retryInMs: JUDGING_RECHECK_MS, delivered: c.delivered, deferred: true });
        return;
      }
      const doc = await buildEvent(store, b, n, c, { db: this.#o.db });
      const json = JSON.stringify(doc);
      const body = n.format === 'slack' ? JSON.stringify({ text: slackText(doc) }) : json;
      const todo = receiversOf(n, this.#o.command ?? null).filter((r) => !c.delivered.includes(receiverTag(r)));
      const results = await Promise.allSettled(
        todo.map((r) => {
          // The command gets the JSON document; a URL the chosen format.
          const sent = r.kind === 'command' ? json : body;
          const headers: Record<string, string> = { 'X-Resq-Event-Id': doc.id, 'X-Resq-Event-Type': doc.type };
          if (this.#o.secret) headers[SIGNATURE_HEADER] = signatureHeader(this.#o.secret, sent, this.#clock.now() / 1000);
          return deliver(r, sent, headers, this.#o.timeoutMs ?? 10_000, signal);
        }),
      );
      const failed = results.flatMap((r, i) => (r.status === 'rejected' ? [`${receiverName(todo[i]!)}: ${(r.reason as Error).message}`] : []));
      if (failed.length === 0) {
        await store.settleOutbox(c, { sent: true });
        return;
      }
      const delivered = [...c.delivered, ...todo.filter((_, i) => results[i]!.status === 'fulfilled').map(receiverTag)];
      const error = `${doc.type} ${doc.id}: ${failed.join('; ')}`;
      this.#problem(`notification not delivered (will retry): ${error}`);
      await store.settleOutbox(c, { sent: false, error, retryInMs: signal?.aborted ? 0 : this.#backoff(c.attempts), delivered });
    } catch (e) {
      // The store failed (a stall, a restart): the claim runs out and the event goes later.
      this.#problem(`notifications: ${(e as Error).message}`);
    }
  }

  #backoff(attempts: number): number {
    const base = this.#o.retryBaseMs ?? 2_000;
    const ms = Math.min(this.#o.retryMaxMs ?? 600_000, base * 2 ** Math.max(0, attempts - 1));
    return Math.round(ms / 2 + (Math.random() * ms) / 2);
  }

  #problem(message: string): void {
    if (message === this.#lastProblem) return;
    this.#lastProblem = message;
    try {
      this.#o.onProblem?.(message);
    } catch {
      // A listener's fault is not the sender's.
    }
  }
}
