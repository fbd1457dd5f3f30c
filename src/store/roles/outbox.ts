/**
 * The outbox role: events for a batch's receivers (notifications), written in the same
 * transaction as the change that causes them (an item held, the batch's last item ended, the
 * approved cost crossing a share of the budget: the adapters' triggers of migration 017), then
 * claimed by one sender at a time under a lease with a fencing token, and marked sent. A sender
 * that died between sending and marking leaves its claim to run out: the event goes once more,
 * with the same id.
 */
export interface OutboxStore {
  /** Adds an event unless the batch has one with this key; true when added. */
  addOutboxEvent(batchId: string, event: NewOutboxEvent, nowMs?: number): Promise<boolean>;
  /**
   * Folds the batch's new held items into one `items.held` digest when its last digest is at
   * least `digestMs` old (or it has none), and the items still held `remindMs` after their
   * digest (or last reminder) into one reminder. Returns how many events it added.
   */
  collateHeld(batchId: string, o: { digestMs: number; remindMs: number | null }, nowMs?: number): Promise<number>;
  /** Claims up to `limit` due events (of `batchIds`, or of every batch) for `owner` under a lease. */
  claimOutbox(owner: string, o: { leaseMs: number; limit: number; batchIds?: readonly string[] | null }, nowMs?: number): Promise<OutboxClaim[]>;
  /**
   * Settles a claimed event: sent, or failed (tried again `retryInMs` later, with the receivers
   * that did take it kept in `delivered`). False when the claim was lost (another sender has it).
   */
  settleOutbox(claim: OutboxClaim, outcome: OutboxOutcome, nowMs?: number): Promise<boolean>;
  /** A batch's undelivered events, the last delivery error, and when its items last changed. */
  outboxState(batchId: string): Promise<OutboxState>;
  /**
   * Records (or renews) that `sender`, a process given a notify command on its own command
   * line, sends the batch's events for `leaseMs` from now; 0 ends it. Only the fact is stored,
   * never the command: nothing the database holds runs as a program.
   */
  holdNotifyCommand(batchId: string, sender: NotifyCommandSender, leaseMs: number, nowMs?: number): Promise<void>;
  /** The senders with a notify command whose hold on the batch has not run out (by host and pid). */
  notifyCommands(batchId: string, nowMs?: number): Promise<NotifyCommandSender[]>;
}

/** A process that runs a notify command of its own for a batch's events. */
export interface NotifyCommandSender {
  /** The sender's owner name (unique per process and sender). */
  owner: string;
  host: string;
  pid: number;
}

/** An event a sender adds itself (`batch.stalled`). */
export interface NewOutboxEvent {
  /** Unique in the batch: the event's id is built from it. */
  key: string;
  type: string;
  data: Record<string, unknown>;
}

/** A held item as its fact was recorded: the pause it waits on. */
export interface HeldFact {
  itemId: string;
  runId: string | null;
  reason: string | null;
  tool: string | null;
  /** The pause's trusted cost (planCost), or null. */
  cost: number | null;
  /** The cost as the service sent it, marked (`1e308 (untrusted: above 1e12)`), when it is untrusted; else null. */
  untrustedCost: string | null;
  /** When it was held (ms since the epoch). */
  heldAt: number;
}

/** An event claimed for delivery. */
export interface OutboxClaim {
  /** The row's number (the store's). */
  row: number;
  batchId: string;
  /** Unique in the batch; with the batch id, the event's id receivers deduplicate by. */
  key: string;
  type: string;
  data: Record<string, unknown>;
  /** When the event was written (ms since the epoch). */
  createdAt: number;
  /** Claims so far, this one included. */
  attempts: number;
  owner: string;
  fence: number;
  /** Receivers (by their digest) that took it on an earlier try. */
  delivered: string[];
  /** The held items of an `items.held` event, else empty. */
  held: HeldFact[];
}

/** How a delivery went. */
/**
 * How a claimed event's sending ended: sent, or due again after `retryInMs`. `deferred`: it was
 * put off without a delivery tried (its claim is not counted among its attempts, so a later
 * failure's backoff starts from the first step).
 */
export type OutboxOutcome = { sent: true } | { sent: false; error: string; retryInMs: number; delivered: readonly string[]; deferred?: boolean };

/** What `status` and the page show of a batch's notifications. */
export interface OutboxState {
  undelivered: number;
  /** The latest error of an event still undelivered, or null. */
  lastError: string | null;
  lastErrorAt: number | null;
  /** When an item of the batch last changed state (ISO 8601), or null. */
  lastChangeAt: string | null;
}
