/**
 * Waits `ms` milliseconds; rejects with the signal's reason as soon as it aborts.
 * The timer keeps the process alive: a CLI awaiting a retry or a poll must not exit mid-wait.
 */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortReason(signal));
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortReason(signal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
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
  const attached: { signal: AbortSignal; listener: () => void }[] = [];
  const dispose = (): void => {
    for (const { signal, listener } of attached) signal.removeEventListener('abort', listener);
    attached.length = 0;
  };
  for (const input of inputs) {
    if (!input) continue;
    if (input.aborted) {
      controller.abort(input.reason);
      break;
    }
    const listener = (): void => {
      controller.abort(input.reason);
      dispose();
    };
    input.addEventListener('abort', listener, { once: true });
    attached.push({ signal: input, listener });
  }
  if (controller.signal.aborted) dispose();
  return {
    signal: controller.signal,
    abort: (reason?: unknown) => controller.abort(reason),
    dispose,
  };
}
