/** What follows a signal's abort: a function, or an object told through `signalAborted` (no closure per follower). */
export type AbortFollower = (() => void) | { signalAborted(): void };

const followers = new WeakMap<AbortSignal, Set<AbortFollower>>();

/**
 * Tells `follower` once when `signal` (not aborted yet) aborts, until {@link unfollowAbort}. A signal
 * shared by every request (the runner's, the client's close signal) gets one listener in
 * all: EventTarget looks through its listeners on each add, so one per request would make
 * every add cost O(requests in flight), and re-attaching many streams at once quadratic.
 */
export function followAbort(signal: AbortSignal, follower: AbortFollower): void {
  let set = followers.get(signal);
  if (!set) {
    const fns = new Set<AbortFollower>();
    set = fns;
    followers.set(signal, fns);
    signal.addEventListener(
      'abort',
      () => {
        followers.delete(signal);
        for (const f of fns) {
          if (typeof f === 'function') f();
          else f.signalAborted();
        }
      },
      { once: true },
    );
  }
  set.add(follower);
}

/** Stops telling `follower` about `signal`'s abort. */
export function unfollowAbort(signal: AbortSignal, follower: AbortFollower): void {
  followers.get(signal)?.delete(follower);
}

/** Calls `fn` once when `signal` (not aborted yet) aborts; returns the function that stops that (see {@link followAbort}). */
export function onAbortOf(signal: AbortSignal, fn: () => void): () => void {
  followAbort(signal, fn);
  return () => unfollowAbort(signal, fn);
}

/** The reason an aborted signal carries, or a standard `AbortError` when it has none. */
export function abortReason(signal: AbortSignal | undefined): unknown {
  return signal?.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/** A signal that aborts when any input aborts; `dispose` detaches it from the inputs. */
export interface LinkedSignal {
  signal: AbortSignal;
  /** Aborts the linked signal itself (e.g. when a stream's consumer stops reading). */
  abort(reason?: unknown): void;
  /** Removes the listeners added to the inputs; call it when the request is over. */
  dispose(): void;
}

/**
 * Links several optional signals into one, with explicit cleanup so that long-lived inputs
 * (the client's close signal) do not collect a listener per request.
 */
export function linkSignals(...inputs: (AbortSignal | undefined)[]): LinkedSignal {
  const controller = new AbortController();
  const detach: (() => void)[] = [];
  const dispose = (): void => {
    for (const off of detach) off();
    detach.length = 0;
  };
  for (const input of inputs) {
    if (!input) continue;
    if (input.aborted) {
      controller.abort(input.reason);
      break;
    }
    detach.push(
      onAbortOf(input, () => {
        controller.abort(input.reason);
        dispose();
      }),
    );
  }
  if (controller.signal.aborted) dispose();
  return {
    signal: controller.signal,
    abort: (reason?: unknown) => controller.abort(reason),
    dispose,
  };
}
