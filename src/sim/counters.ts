import type { SimCounters } from './types.js';

const MAX_LATENCIES = 10_000;

/**
 * Mutable counters behind `sim.counters()`. The counts per question and per idempotency key
 * grow with every run: they are Maps (which keep the request's own string as the key) and
 * become records only in a snapshot.
 */
export class CounterBook {
  #c: SimCounters = CounterBook.#blank();
  #running = new Map<string, number>();
  #byInput = new Map<string, number>();
  /** Route key → idempotency key → runs created with it. */
  #byKey = new Map<string, Map<string, number>>();

  static #blank(): SimCounters {
    return {
      runsAdmitted: 0,
      respondRuns: 0,
      admissionsByKey: {},
      admissionsByInput: {},
      requestsByRoute: {},
      peakConcurrentRuns: {},
      modelRunsAdmitted: 0,
      modelRunsByKey: {},
      faultsInjected: {},
      fileFetches: {},
      pauseToRespondMs: [],
    };
  }

  /** A deep copy, safe to keep and serialise. */
  snapshot(): SimCounters {
    const c = structuredClone(this.#c);
    c.admissionsByInput = Object.fromEntries(this.#byInput);
    for (const [route, keys] of this.#byKey) for (const [k, n] of keys) c.admissionsByKey[`${route}|${k}`] = n;
    return c;
  }

  /** Zeroes the counters; runs currently running still count towards peaks. */
  reset(): void {
    this.#c = CounterBook.#blank();
    this.#byInput = new Map();
    this.#byKey = new Map();
  }

  /** One /api/v1 request for a route key. */
  request(routeKey: string): void {
    bump(this.#c.requestsByRoute, routeKey);
  }

  /** One body of a file begun (GET /files/{id}). */
  fileFetch(fileId: string): void {
    bump(this.#c.fileFetches, fileId);
  }

  /** One injected fault of a kind. */
  fault(kind: string): void {
    bump(this.#c.faultsInjected, kind);
  }

  /** A run created by POST /runs (not a replay). */
  runAdmitted(input: string, routeKey: string, idempotencyKey: string | undefined): void {
    this.#c.runsAdmitted++;
    this.#byInput.set(input, (this.#byInput.get(input) ?? 0) + 1);
    if (idempotencyKey !== undefined) this.#admittedWithKey(routeKey, idempotencyKey);
  }

  #admittedWithKey(routeKey: string, key: string): void {
    let keys = this.#byKey.get(routeKey);
    if (!keys) this.#byKey.set(routeKey, (keys = new Map()));
    keys.set(key, (keys.get(key) ?? 0) + 1);
  }

  /** A run created by POST /runs/{id}/respond (not a replay). */
  respondRun(routeKey: string, idempotencyKey: string | undefined): void {
    this.#c.respondRuns++;
    if (idempotencyKey !== undefined) this.#admittedWithKey(routeKey, idempotencyKey);
  }

  /** How long a paused run waited for the respond that answered it. */
  answered(waitedMs: number): void {
    const list = this.#c.pauseToRespondMs;
    // Bounded: a simulator served for days must not grow without end.
    if (list.length >= MAX_LATENCIES) list.shift();
    list.push(Math.round(waitedMs * 100) / 100);
  }

  /** A model run created (not a replay). */
  modelRun(idempotencyKey: string | undefined): void {
    this.#c.modelRunsAdmitted++;
    if (idempotencyKey !== undefined) bump(this.#c.modelRunsByKey, idempotencyKey);
  }

  /** A run of `account` entered (`+1`) or left (`-1`) status `running`. */
  running(account: string, delta: 1 | -1): void {
    const n = (this.#running.get(account) ?? 0) + delta;
    this.#running.set(account, n);
    if (n > (this.#c.peakConcurrentRuns[account] ?? 0)) this.#c.peakConcurrentRuns[account] = n;
  }

  /** Runs of `account` in status `running` now. */
  runningNow(account: string): number {
    return this.#running.get(account) ?? 0;
  }
}

function bump(rec: Record<string, number>, key: string): void {
  rec[key] = (rec[key] ?? 0) + 1;
}
