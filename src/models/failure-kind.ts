import { classifyFailure } from '../api/failure-class.js';

/**
 * What a failed create request (`POST /models/{id}/runs`, after the client's own retries)
 * means for its row: `fatal` stops the batch (a bad key, an unreachable service); `unsent`:
 * the service provably did not act (429), send again; `unknown`: it may have started the
 * run (5xx, dropped connection, timeout, odd answer); `permanent`: it refused these inputs;
 * `aborted`; `bug`: ours.
 */
export type SubmitFailure = 'fatal' | 'unsent' | 'unknown' | 'permanent' | 'aborted' | 'bug';

/** Classifies a failed create request through the one taxonomy (api/failure-class.ts): an unsafe submit. */
export function submitFailure(err: unknown, aborted: boolean): SubmitFailure {
  const v = classifyFailure({ error: err, aborted, request: 'submit', idempotent: false });
  switch (v.action) {
    case 'abort':
      return 'aborted';
    case 'stop':
      return 'fatal';
    case 'retry':
      return v.arrived === 'no' ? 'unsent' : 'unknown';
    case 'unknown':
      return 'unknown';
    case 'fail':
    case 'gone':
      return 'permanent';
    case 'bug':
      return 'bug';
  }
}

/**
 * What a failed read of a running job (`GET /model-runs/{id}`) means: `transient` (read
 * again later: network, 408, 429, 5xx, an odd answer), `gone` (404: the service does not
 * know the run), `fatal`, `aborted`, `bug` (also a refused read: nothing the row can fix).
 */
export type ReadFailure = 'transient' | 'gone' | 'fatal' | 'aborted' | 'bug';

/** Classifies a failed read through the one taxonomy (api/failure-class.ts). */
export function readFailure(err: unknown, aborted: boolean): ReadFailure {
  const v = classifyFailure({ error: err, aborted, request: 'read' });
  switch (v.action) {
    case 'abort':
      return 'aborted';
    case 'stop':
      return 'fatal';
    case 'retry':
    case 'unknown':
      return 'transient';
    case 'gone':
      return 'gone';
    case 'fail':
    case 'bug':
      return 'bug';
  }
}
