import { describe, expect, it } from 'vitest';
import { createApiError, readErrorBody, redact } from '../../src/api/error-factory.js';
import {
  ApiError,
  AuthError,
  BadRequestError,
  ConflictError,
  NotFoundError,
  RateLimitError,
  ServerError,
} from '../../src/api/errors.js';
import { ResqError } from '../../src/errors.js';

const req = { method: 'POST', path: '/runs', attempt: 3, maxAttempts: 6 };

describe('createApiError', () => {
  it.each([
    [400, BadRequestError, 'RESQ_API_BAD_REQUEST'],
    [422, BadRequestError, 'RESQ_API_BAD_REQUEST'],
    [401, AuthError, 'RESQ_API_AUTH'],
    [403, AuthError, 'RESQ_API_AUTH'],
    [404, NotFoundError, 'RESQ_API_NOT_FOUND'],
    [410, NotFoundError, 'RESQ_API_NOT_FOUND'],
    [409, ConflictError, 'RESQ_API_CONFLICT'],
    [429, RateLimitError, 'RESQ_API_RATE_LIMIT'],
    [500, ServerError, 'RESQ_API_SERVER'],
    [503, ServerError, 'RESQ_API_SERVER'],
    [405, ApiError, 'RESQ_API'],
    [408, ApiError, 'RESQ_API'],
  ])('maps %i to its class and code', (status, Cls, code) => {
    const err = createApiError({ status, headers: {}, bodyText: '' }, req);
    expect(err).toBeInstanceOf(Cls);
    expect(err).toBeInstanceOf(ResqError);
    expect(err.constructor).toBe(Cls);
    expect(err.code).toBe(code);
    expect(err.name).toBe(Cls.name);
  });

  it('names request and attempt in the message, with a default text for the status', () => {
    const err = createApiError({ status: 429, headers: {}, bodyText: '' }, req);
    expect(err.message).toBe('HTTP 429 POST /runs (attempt 3/6): too many requests');
    expect(err).toMatchObject({ status: 429, method: 'POST', path: '/runs', attempt: 3, maxAttempts: 6 });
  });

  it('reads {error:{code,message}} and the request id header', () => {
    const err = createApiError(
      {
        status: 409,
        headers: { 'x-request-id': 'req-1' },
        bodyText: JSON.stringify({ error: { code: 'thread_busy', message: 'the thread has a run going' } }),
      },
      req,
    );
    expect(err).toBeInstanceOf(ConflictError);
    expect((err as ConflictError).threadBusy).toBe(true);
    expect(err.apiCode).toBe('thread_busy');
    expect(err.requestId).toBe('req-1');
    expect(err.message).toBe('HTTP 409 POST /runs (attempt 3/6): the thread has a run going [thread_busy]');
  });

  it('reads the flat {code,message} shape and a request id in the body', () => {
    const err = createApiError(
      { status: 400, headers: {}, bodyText: JSON.stringify({ code: 'invalid_request', message: 'input is required', request_id: 'r9' }) },
      req,
    );
    expect(err.apiCode).toBe('invalid_request');
    expect(err.detail).toBe('input is required');
    expect(err.requestId).toBe('r9');
  });

  it('takes a plain-text or HTML body by its first line', () => {
    const err = createApiError({ status: 502, headers: {}, bodyText: 'Bad gateway from proxy\n<html>…' }, req);
    expect(err.detail).toBe('Bad gateway from proxy');
  });

  it('says not thread busy for a 409 with another code', () => {
    const err = createApiError({ status: 409, headers: {}, bodyText: '{"error":{"code":"other"}}' }, req);
    expect((err as ConflictError).threadBusy).toBe(false);
  });

  it('keeps the raw Retry-After header for the retry policy', () => {
    const err = createApiError({ status: 429, headers: { 'retry-after': '3' }, bodyText: '' }, req);
    expect(err.retryAfter).toBe('3');
  });

  it('redacts secrets the body echoes and shortens long messages', () => {
    const key = 'sk-live-abcdef';
    const body = JSON.stringify({ error: { code: key, message: `bad key ${key} ${'x'.repeat(1000)}` } });
    const err = createApiError({ status: 401, headers: {}, bodyText: body }, req, [key]);
    expect(JSON.stringify({ ...err, message: err.message })).not.toContain(key);
    expect(err.message).toContain('[redacted]');
    expect(err.detail.length).toBeLessThanOrEqual(300);
  });

  it('adds a note to the message when given', () => {
    const err = createApiError({ status: 409, headers: {}, bodyText: '{"code":"thread_busy","message":"busy"}' }, { ...req, note: 'thread busy 30/30' });
    expect(err.message).toBe('HTTP 409 POST /runs (attempt 3/6, thread busy 30/30): busy [thread_busy]');
  });
});

describe('readErrorBody', () => {
  it('tolerates every body shape without throwing', () => {
    expect(readErrorBody('')).toEqual({ code: null, message: null, requestId: null });
    expect(readErrorBody('[1,2]')).toEqual({ code: null, message: null, requestId: null });
    expect(readErrorBody('"just a string"').message).toBe('just a string');
    expect(readErrorBody('{"error":"unauthorized"}').message).toBe('unauthorized');
    expect(readErrorBody('{"detail":"Not found."}').message).toBe('Not found.');
    expect(readErrorBody('{not json').message).toBe('{not json');
    expect(readErrorBody('null')).toEqual({ code: null, message: null, requestId: null });
  });
});

describe('redact', () => {
  it('replaces every occurrence and ignores empty secrets', () => {
    expect(redact('a KEY b KEY', ['KEY', ''])).toBe('a [redacted] b [redacted]');
  });
});
