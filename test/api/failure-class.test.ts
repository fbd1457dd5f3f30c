import { describe, expect, it } from 'vitest';
import { cannotReachMessage, classifyFailure, connectReason, type FailureInput } from '../../src/api/failure-class.js';
import { ApiError, AuthError, BadRequestError, ConflictError, NetworkError, NotFoundError, RateLimitError, ResponseShapeError, ServerError, TimeoutError } from '../../src/api/index.js';
import { InputError } from '../../src/errors.js';
import { errorKind } from '../../src/runner/error-kind.js';
import { readFailure, submitFailure } from '../../src/models/failure-kind.js';
import { classifyFailure as downloadFailure } from '../../src/files/failure.js';

const req = { method: 'POST', path: '/runs', attempt: 6, maxAttempts: 6 };
const api = (status: number, apiCode: string | null = null) => ({ ...req, status, apiCode, requestId: null, detail: 'x', retryAfter: null });
const net = (phase: 'connect' | 'request' | 'closed', causeCode: string, retryable = true) =>
  new NetworkError({ ...req, phase, detail: causeCode, causeCode, retryable });
const shape = new ResponseShapeError({ method: 'POST', path: '/runs', issues: ['id: expected string'] });
const classify = (error: unknown, over: Partial<FailureInput> = {}) => classifyFailure({ error, aborted: false, request: 'submit', ...over });

describe('classifyFailure (the one taxonomy)', () => {
  it('aborts on a caller abort or a closed client, whatever the error', () => {
    expect(classify(new ServerError(api(503)), { aborted: true }).action).toBe('abort');
    expect(classify(net('closed', 'UND_ERR_CLOSED', false)).action).toBe('abort');
  });

  it('stops on a refused key except for a file on another origin', () => {
    expect(classify(new AuthError(api(401))).action).toBe('stop');
    expect(classify(new AuthError(api(403)), { request: 'read' }).action).toBe('stop');
    expect(classify(new AuthError(api(403)), { request: 'download' }).action).toBe('fail');
  });

  it('says an unreachable service arrived nowhere and stops submissions, not reads', () => {
    const refused = classify(net('connect', 'ECONNREFUSED'));
    expect(refused).toMatchObject({ action: 'stop', arrived: 'no', unreachable: true, reason: 'connection refused' });
    expect(classify(net('connect', 'ENOTFOUND')).reason).toBe('host not found');
    expect(classify(net('connect', 'ECONNREFUSED'), { request: 'read' }).action).toBe('retry');
    expect(classify(net('connect', 'ECONNREFUSED'), { request: 'download' }).action).toBe('retry');
  });

  it('reads a TLS failure on an http port as a wrong scheme, plainly', () => {
    const v = classify(net('connect', 'ERR_SSL_WRONG_VERSION_NUMBER', false));
    expect(v.action).toBe('stop');
    expect(v.reason).toMatch(/http:\/\/ rather than https:\/\//);
    expect(connectReason('DEPTH_ZERO_SELF_SIGNED_CERT')).toMatch(/certificate/);
  });

  it('says an unreachable service in one sentence, naming it and why', () => {
    expect(cannotReachMessage('http://127.0.0.1:9/api/v1', 'ECONNREFUSED')).toBe('cannot reach http://127.0.0.1:9/api/v1 (connection refused)');
  });

  it('retries what may have arrived only when repeating is safe', () => {
    for (const e of [net('request', 'ECONNRESET'), new ServerError(api(502)), new ApiError(api(408)), shape]) {
      expect(classify(e, { idempotent: true }).action).toBe('retry');
      expect(classify(e, { idempotent: false }).action).toBe('unknown');
    }
    expect(classify(new RateLimitError(api(429)), { idempotent: false })).toMatchObject({ action: 'retry', arrived: 'no' });
    expect(classify(new ConflictError(api(409, 'thread_busy'))).action).toBe('retry');
  });

  it('fails refusals, and reads a 404 as gone except for a submission', () => {
    expect(classify(new BadRequestError(api(400))).action).toBe('fail');
    expect(classify(new ConflictError(api(409, 'other'))).action).toBe('fail');
    expect(classify(new NotFoundError(api(404))).action).toBe('fail');
    expect(classify(new NotFoundError(api(404)), { request: 'read' }).action).toBe('gone');
    expect(classify(new InputError('bad')).action).toBe('fail');
    expect(classify(new TypeError('x')).action).toBe('bug');
  });
});

describe('the classifiers that call it agree', () => {
  const live = new AbortController().signal;
  it('408 is transient for agent runs, model submissions, model reads and downloads alike', () => {
    const e = new ApiError(api(408));
    expect(errorKind(e, live)).toBe('transient');
    expect(submitFailure(e, false)).toBe('unknown');
    expect(readFailure(e, false)).toBe('transient');
    expect(downloadFailure(e, false).kind).toBe('retry');
  });
  it('an odd response shape: retried where repeating is safe, unknown for a model submission', () => {
    expect(errorKind(shape, live)).toBe('transient');
    expect(submitFailure(shape, false)).toBe('unknown');
    expect(readFailure(shape, false)).toBe('transient');
  });
  it('a refused connection stops agent and model batches', () => {
    expect(errorKind(net('connect', 'ECONNREFUSED'), live)).toBe('fatal');
    expect(submitFailure(net('connect', 'ECONNREFUSED'), false)).toBe('fatal');
    expect(readFailure(net('connect', 'ECONNREFUSED'), false)).toBe('transient');
    expect(submitFailure(new RateLimitError(api(429)), false)).toBe('unsent');
  });
});

describe('messages name the attempt only when a request was retried', () => {
  it('leaves "attempt 1/6" out and keeps "attempt 3/6"', () => {
    const first = new NetworkError({ ...req, attempt: 1, phase: 'request', detail: 'ECONNRESET', causeCode: 'ECONNRESET', retryable: true });
    expect(first.message).toBe('network error POST /runs: ECONNRESET');
    expect(new ServerError({ ...api(503), attempt: 3 }).message).toBe('HTTP 503 POST /runs (attempt 3/6): x');
    expect(new ConflictError({ ...api(409, 'thread_busy'), attempt: 1, note: 'thread busy 30/30' }).message).toBe('HTTP 409 POST /runs (thread busy 30/30): x [thread_busy]');
  });
});

describe('classifyFailure: this machine running short', () => {
  const local = (code: string) => new NetworkError({ ...req, phase: 'local', detail: code, causeCode: code, retryable: true });
  it('retries EMFILE, ENFILE, ENOMEM and ENOSPC (a socket or a system error alike): nothing arrived, never the item\'s failure', () => {
    for (const code of ['EMFILE', 'ENFILE', 'ENOMEM', 'ENOSPC']) {
      for (const error of [local(code), Object.assign(new Error(`open ${code}`), { code })]) {
        for (const request of ['submit', 'read', 'download'] as const) {
          expect(classify(error, { request })).toMatchObject({ action: 'retry', arrived: 'no' });
        }
        expect(errorKind(error, new AbortController().signal)).toBe('transient');
      }
    }
  });
});
