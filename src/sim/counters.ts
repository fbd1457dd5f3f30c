import type { SimCounters } from './types.js';

const MAX_LATENCIES = 10_000;

/** Mutable counters behind `sim.counters()`. */
export class CounterBook {
  #c: SimCounters = CounterBook.#blank();
  #running = new Map<string, number>();

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
      pauseToRespondMs: [],
    };
  }

  /** A deep copy, safe to keep and serialise. */
  snapshot(): SimCounters {
    return structuredClone(this.#c);
  }

  /** Zeroes the counters; runs currently running still count towards peaks. */
  reset(): void {
    this.#c = CounterBook.#blank();
  }

  /** One /api/v1 request for a route key. */
  request(routeKey: string): void {
    bump(this.#c.requestsByRoute, routeKey);
  }

  /** One injected fault of a kind. */
  fault(kind: string): void {
    bump(this.#c.faultsInjected, kind);
  }

  /** A run created by POST /runs (not a replay). */
  runAdmitted(input: string, routeKey: string, idempotencyKey: string | undefined): void {
    this.#c.runsAdmitted++;
    bump(this.#c.admissionsByInput, input);
    if (idempotencyKey !== undefined) bump(this.#c.admissionsByKey, `${routeKey}|${idempotencyKey}`);
  }

  /** A run created by POST /runs/{id}/respond (not a replay). */
  respondRun(routeKey: string, idempotencyKey: string | undefined): void {
    this.#c.respondRuns++;
    if (idempotencyKey !== undefined) bump(this.#c.admissionsByKey, `${routeKey}|${idempotencyKey}`);
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
