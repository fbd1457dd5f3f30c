import { createHash, randomBytes } from 'node:crypto';

// A random prefix per process and a counter: unique ids without asking the kernel for
// randomness on every request (a kernel call per id is a visible share of the CPU under load).
const PREFIX = randomBytes(6).toString('hex');
let counter = 0;

/** A new request id for the `x-request-id` header and error bodies: `req_` and 20 hex digits. */
export function newRequestId(): string {
  return `req_${PREFIX}${(counter++ >>> 0).toString(16).padStart(8, '0')}`;
}

/**
 * The id of tool call `i` of a run, derived from the run's id (so a run need not keep it):
 * `call_` and 16 hex digits, the last 14 of the run's uuid.
 */
export function derivedCallId(runId: string, i: number): string {
  const hex = runId.replaceAll('-', '');
  return `call_${hex.slice(18, 32)}${(i & 0xff).toString(16).padStart(2, '0')}`;
}

/** The id of the user's or the assistant's message of a run, a uuid derived from the run's id. */
export function derivedMessageId(runId: string, role: 'user' | 'assistant'): string {
  const h = createHash('sha1').update(`${runId}/${role}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
