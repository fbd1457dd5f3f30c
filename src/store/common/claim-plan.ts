import { idempotencyKey } from '../keys.js';
import { ACTIVE_STATES, type ItemState } from '../item-states.js';
import type { ClaimRequest, Lease } from '../port.js';
import type { ItemRecord } from '../types.js';

/**
 * The pure pieces of a claim, shared by both adapters (the SQL that reads and writes the
 * rows stays in each adapter's claims.ts): which in-flight states may be taken over, the cap
 * a claim is held to, the order and the budget of what it takes, and the in-flight fields a
 * claimed item gets. No I/O here.
 */

/** How many queued rows a claim reads at a time while looking for claimable ones. */
export const QUEUED_PAGE = 64;

/** The in-flight states a claim takes items over in (the request's, else every one). */
export function takeOverStates(req: Pick<ClaimRequest, 'takeOver'>): ItemState[] {
  return (req.takeOver ?? ACTIVE_STATES).filter((s) => ACTIVE_STATES.includes(s));
}

/** The cap on runs in flight a claim is held to: the worker's, lowered by the batch's adaptive cap (after HTTP 429). */
export function effectiveCap(cap: number, capLimit: number | null): number {
  return capLimit !== null && capLimit < cap ? capLimit : cap;
}

/**
 * Orphans as a claim takes them: those the worker gave up on (`skip`) left out, at most
 * `max`, in file order. The adapter reads `max + skip.length` candidates.
 */
export function pickOrphans<R extends { id: string; seq: number }>(rows: readonly R[], skip: readonly string[] | undefined, max: number): R[] {
  const left = skip?.length ? new Set(skip) : null;
  return rows.filter((r) => !left?.has(r.id)).slice(0, max).sort((a, b) => a.seq - b.seq);
}

/** Whether an orphan is an answered item no worker has held yet: its run ended, so sending it takes a slot (flights.ts runNotGoing, for a record). */
export function takesSlot(it: Pick<ItemRecord, 'state' | 'leaseUntil'>): boolean {
  return it.state === 'waiting' && it.leaseUntil === null;
}

/**
 * What one claim may still take: the worker's free slots (`max`), the batch's cap on runs in
 * flight over every worker (`cap`, against `inFlight`), and `--limit` on queued items
 * (`maxQueued`). The adapter asks it before each item and tells it what it took.
 */
export class ClaimBudget {
  inFlight: number;
  taken = 0;
  fresh = 0;
  readonly max: number;
  readonly cap: number;
  readonly maxQueued: number;

  constructor(req: Pick<ClaimRequest, 'max' | 'maxQueued'>, cap: number, inFlight: number) {
    this.max = req.max;
    this.cap = cap;
    this.maxQueued = req.maxQueued ?? req.max;
    this.inFlight = inFlight;
  }

  /** Whether an orphan may be taken (an answered item no worker held needs a free slot); counts it when so. */
  takeOrphan(it: Pick<ItemRecord, 'state' | 'leaseUntil'>): boolean {
    if (takesSlot(it)) {
      if (this.inFlight >= this.cap) return false;
      this.inFlight++;
    }
    this.taken++;
    return true;
  }

  /** Whether one more queued item may be moved to `submitting`. */
  get roomForQueued(): boolean {
    return this.taken < this.max && this.inFlight < this.cap && this.fresh < this.maxQueued;
  }

  /** How many more queued items this claim can take now. */
  get wantQueued(): number {
    return Math.min(this.max - this.taken, this.cap - this.inFlight, this.maxQueued - this.fresh);
  }

  /** Counts a queued item taken. */
  takeQueued(): void {
    this.taken++;
    this.inFlight++;
    this.fresh++;
  }
}

/** How many queued rows to read next: what the claim can take and as many as it passed over (later thread items), within a page. */
export function queuedPageSize(want: number, passed: number): number {
  return Math.min(QUEUED_PAGE, Math.max(1, Math.ceil(want + passed)));
}

/** The in-flight fields of a queued item moved to `submitting` under a lease: its key stored, the next fencing token. */
export interface SubmitPlan {
  pendingKey: string;
  threadId: string | null;
  startedAt: string;
  owner: string;
  leaseUntil: number;
  fence: number;
}

/** The plan of {@link SubmitPlan} for `it`, claimed at `nowMs` (the store's clock or the database's). */
export function submitPlan(it: ItemRecord, lease: Lease, nowMs: number, threadId: string | null): SubmitPlan {
  return {
    pendingKey: idempotencyKey(it.batchId, it.id, it.step, it.attempt),
    threadId,
    startedAt: it.startedAt ?? new Date(nowMs).toISOString(),
    owner: lease.workerId,
    leaseUntil: nowMs + lease.leaseMs,
    fence: it.fence + 1,
  };
}

/** The item as a claim hands it back once `plan` is written. */
export function submitted(it: ItemRecord, plan: SubmitPlan, updatedAt: string): ItemRecord {
  return { ...it, state: 'submitting', ...plan, updatedAt };
}

/** The item taken over under a lease (an orphan): the next fencing token. */
export function ownedPlan(it: ItemRecord, lease: Lease, nowMs: number): Pick<ItemRecord, 'owner' | 'leaseUntil' | 'fence'> {
  return { owner: lease.workerId, leaseUntil: nowMs + lease.leaseMs, fence: it.fence + 1 };
}

/** The rows in seq order: as read (an index walk), or sorted should they ever come otherwise. */
export function inSeqOrder<R extends { seq: number }>(rows: R[]): R[] {
  for (let i = 1; i < rows.length; i++) if (rows[i]!.seq < rows[i - 1]!.seq) return rows.sort((a, b) => a.seq - b.seq);
  return rows;
}
