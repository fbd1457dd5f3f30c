/**
 * The service said "too many requests" (HTTP 429). Sent for every 429 an attempt gets,
 * whether the client then retries it or gives up, so a scheduler can lower its cap while
 * the client waits out `Retry-After`.
 */
export interface ThrottleEvent {
  type: 'throttle';
  method: string;
  /** Path relative to the base URL, no query string. */
  path: string;
  /** The request would have started work at the service (a run, a respond, a model run): the admissions a cap limits. */
  admission: boolean;
  /** The attempt that got the 429 (1-based). */
  attempt: number;
  /** The service's Retry-After, when it sent one that could be read. */
  retryAfter: string | null;
}

/** Receives throttle events; must not throw (a throwing listener is ignored). */
export type ThrottleListener = (event: ThrottleEvent) => void;

/** A set of throttle listeners: subscribe, unsubscribe, tell them all. */
export class ThrottleSignal {
  readonly #listeners = new Set<ThrottleListener>();

  /** Adds a listener; returns what removes it. */
  subscribe(listener: ThrottleListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Tells every listener; one that throws does not stop the others nor the request. */
  emit(event: ThrottleEvent): void {
    for (const l of this.#listeners) {
      try {
        l(event);
      } catch {
        // A listener's failure is its own; the request goes on.
      }
    }
  }
}
