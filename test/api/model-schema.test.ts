import { describe, expect, it } from 'vitest';
import { ModelDescriptionSchema, ModelRunSchema } from '../../src/api/model-schema.js';

describe('ModelDescriptionSchema', () => {
  it('parses lists of fields and defaults required to false', () => {
    const d = ModelDescriptionSchema.parse({
      id: 'echo',
      inputs: [
        { name: 'text', type: 'string', required: true },
        { name: 'repeat', type: 'integer', default: 1, unit: 'times' },
      ],
      outputs: [{ name: 'text', type: 'string' }],
    });
    expect(d.inputs).toEqual([
      { name: 'text', type: 'string', required: true },
      { name: 'repeat', type: 'integer', required: false, default: 1, unit: 'times' },
    ]);
    expect(d.outputs[0]?.name).toBe('text');
  });

  it('accepts fields keyed by name, and missing lists', () => {
    const d = ModelDescriptionSchema.parse({ inputs: { seq: { type: 'string', required: true } } });
    expect(d.inputs).toEqual([{ name: 'seq', type: 'string', required: true }]);
    expect(d.outputs).toEqual([]);
  });

  it('gives a field without a type the type null', () => {
    const d = ModelDescriptionSchema.parse({ inputs: [{ name: 'x' }] });
    expect(d.inputs[0]?.type).toBeNull();
  });
});

describe('ModelRunSchema', () => {
  it('normalises absent fields to null and keeps unknown statuses', () => {
    const r = ModelRunSchema.parse({ id: 'm1', status: 'queued' });
    expect(r).toEqual({ id: 'm1', status: 'queued', outputs: null, error: null, credits: null, poll_url: null, page_url: null });
  });

  it('parses a finished run', () => {
    const r = ModelRunSchema.parse({
      id: 'm1',
      status: 'failed',
      outputs: null,
      error: 'out of memory',
      credits: 2,
      poll_url: null,
      page_url: 'https://h/models/echo',
    });
    expect(r.error).toBe('out of memory');
  });
});
