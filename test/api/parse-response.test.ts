import { describe, expect, it } from 'vitest';
import { ResponseShapeError } from '../../src/api/errors.js';
import { parseResponse } from '../../src/api/parse-response.js';
import { RunSchema } from '../../src/api/run-schema.js';

describe('parseResponse', () => {
  it('returns the parsed value', () => {
    expect(parseResponse(RunSchema, { id: 'r', status: 'running', thread_id: 't' }, { method: 'GET', path: '/runs/r' }).id).toBe('r');
  });

  it('throws ResponseShapeError naming fields but not values', () => {
    const secretish = 'value-that-must-not-show';
    let err: unknown;
    try {
      parseResponse(RunSchema, { id: 1, status: secretish }, { method: 'GET', path: '/runs/r' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ResponseShapeError);
    const shape = err as ResponseShapeError;
    expect(shape.code).toBe('RESQ_API_SHAPE');
    expect(shape.issues.some((i) => i.startsWith('id:'))).toBe(true);
    expect(shape.issues.some((i) => i.startsWith('thread_id:'))).toBe(true);
    expect(shape.message).toMatch(/^unexpected response to GET \/runs\/r: /);
    expect(shape.message).not.toContain(secretish);
  });

  it('names the body itself when it is not an object', () => {
    expect(() => parseResponse(RunSchema, null, { method: 'GET', path: '/x' })).toThrow(/\(body\)/);
  });
});
