import { describe, expect, it } from 'vitest';
import { ApiError, BadRequestError, NetworkError, ResponseShapeError, ServerError } from '../../src/api/errors.js';
import type { ClientLogEvent } from '../../src/api/log-events.js';
import { isStreamFailure, isTransient, pollUntil } from '../../src/api/poll.js';

const info = { method: 'GET', path: '/runs/r', attempt: 1, maxAttempts: 1 };
const apiError = (Cls: typeof ApiError, status: number) =>
  new Cls({ ...info, status, apiCode: null, detail: 'x', requestId: null, retryAfter: null });
const netError = (retryable: boolean) =>
  new NetworkError({ ...info, phase: 'request', detail: 'x', causeCode: 'ECONNRESET', retryable });

function scriptedRead(steps: (string | Error)[]) {
  let i = 0;
  return async () => {
    const step = steps[Math.min(i++, steps.length - 1)]!;
    if (step instanceof Error) throw step;
    return step;
  };
}

function base(read: () => Promise<string>, over: { maxFailures?: number; waitFirst?: boolean } = {}) {
  const delays: number[] = [];
  const logs: ClientLogEvent[] = [];
  const values: string[] = [];
  const run = pollUntil({
    read,
    isDone: (v) => v === 'done',
    intervalMs: 100,
    waitFirst: over.waitFirst ?? false,
    maxFailures: over.maxFailures ?? 3,
    sleep: async (ms) => void delays.push(ms),
    onValue: (v) => values.push(v),
    onLog: (e) => logs.push(e),
    id: 'r',
  });
  return { run, delays, logs, values };
}

describe('pollUntil', () => {
  it('reads at once, then every interval, until done', async () => {
    const { run, delays, values } = base(scriptedRead(['running', 'running', 'done']));
    await expect(run).resolves.toBe('done');
    expect(delays).toEqual([100, 100]);
    expect(values).toEqual(['running', 'running', 'done']);
  });

  it('waits first when asked', async () => {
    const { run, delays } = base(scriptedRead(['done']), { waitFirst: true });
    await run;
    expect(delays).toEqual([100]);
  });

  it('tolerates transient failures in a row up to the limit, logging each', async () => {
    const { run, logs } = base(scriptedRead([apiError(ServerError, 503), netError(true), 'done']));
    await expect(run).resolves.toBe('done');
    expect(logs.map((l) => l.type === 'poll-error' && l.failures)).toEqual([1, 2]);
  });

  it('throws the failure once the limit is reached', async () => {
    const err = apiError(ServerError, 500);
    const { run } = base(scriptedRead([err]), { maxFailures: 3 });
    await expect(run).rejects.toBe(err);
  });

  it('throws permanent failures at once', async () => {
    const err = apiError(BadRequestError, 400);
    const { run, logs } = base(scriptedRead([err, 'done']));
    await expect(run).rejects.toBe(err);
    expect(logs).toEqual([]);
  });
});

describe('failure classes', () => {
  it('counts network, 408, 429 and 5xx as transient', () => {
    expect(isTransient(netError(true))).toBe(true);
    expect(isTransient(netError(false))).toBe(false);
    expect(isTransient(apiError(ApiError, 408))).toBe(true);
    expect(isTransient(apiError(ServerError, 502))).toBe(true);
    expect(isTransient(apiError(BadRequestError, 400))).toBe(false);
    expect(isTransient(new Error('bug'))).toBe(false);
  });

  it('also lets a stream that is not SSE fall back to polling', () => {
    expect(isStreamFailure(new ResponseShapeError({ method: 'GET', path: '/x', issues: ['y'] }))).toBe(true);
    expect(isStreamFailure(new TypeError('bug'))).toBe(false);
  });
});
