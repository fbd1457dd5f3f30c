/**
 * What the client reports through `onLog`. Reasons and paths come from the same redacted
 * text as error messages: no event ever holds the API key or a query string.
 */
export type ClientLogEvent =
  | {
      /** A request failed and will be sent again after `delayMs`. */
      type: 'retry';
      method: string;
      /** Path relative to the base URL, no query string. */
      path: string;
      /** The attempt that failed (1-based). */
      attempt: number;
      /** The budget it counts against (`maxAttempts`, or `threadBusyMaxAttempts`). */
      maxAttempts: number;
      delayMs: number;
      /** `HTTP 503`, `ECONNRESET`, `thread_busy`, … */
      reason: string;
      /** The failure's message (redacted). */
      message: string;
    }
  | {
      /** An event stream ended without the final `run` event; reconnecting with `after`. */
      type: 'stream-reconnect';
      runId: string;
      /** The `after` sent on the new connection (last event id seen), or null. */
      after: number | null;
      delayMs: number;
      /** Connections in a row that brought no new event. */
      failures: number;
      reason: string;
    }
  | {
      /** Streaming failed repeatedly: following the run by polling from now on. */
      type: 'stream-fallback';
      runId: string;
      failures: number;
      reason: string;
    }
  | {
      /** A poll failed after its own retries; polling continues. */
      type: 'poll-error';
      /** Run id or model run id. */
      id: string;
      /** Polls in a row that failed. */
      failures: number;
      message: string;
    };

/** Receives log events; must not throw (a throwing listener is ignored). */
export type ClientLogListener = (event: ClientLogEvent) => void;
