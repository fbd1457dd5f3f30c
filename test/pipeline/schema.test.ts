import { describe, expect, it } from 'vitest';
import { pipelineFileSchema, pipelineSchema } from '../../src/pipeline/schema.js';

describe('pipelineFileSchema', () => {
  it('needs only questions', () => {
    expect(pipelineFileSchema.parse({ questions: 'q.csv' })).toEqual({ questions: 'q.csv' });
  });

  it('reads download as a mapping or as a boolean', () => {
    expect(pipelineFileSchema.parse({ questions: 'q', download: false }).download).toEqual({ enabled: false });
    expect(pipelineFileSchema.parse({ questions: 'q', download: { out: 'o' } }).download).toEqual({ enabled: true, out: 'o' });
  });

  it('is strict about keys', () => {
    expect(pipelineFileSchema.safeParse({ questions: 'q', qustions: 'q' }).success).toBe(false);
    expect(pipelineFileSchema.safeParse({ questions: 'q', download: { enable: true } }).success).toBe(false);
  });
});

describe('pipelineSchema', () => {
  it('describes a loaded pipeline', () => {
    const loaded = {
      file: '/p/demo.yaml',
      name: null,
      questions: '/p/q.csv',
      concurrency: null,
      policy: null,
      download: { enabled: true, concurrency: null, out: null },
      service: { kind: 'url', baseUrl: 'https://x/api/v1' },
      follow: null,
      cancelRoute: null,
    };
    expect(pipelineSchema.parse(loaded)).toEqual(loaded);
    expect(pipelineSchema.parse({ ...loaded, cancelRoute: '/runs/{id}/stop' }).cancelRoute).toBe('/runs/{id}/stop');
    expect(pipelineSchema.safeParse({ ...loaded, service: { kind: 'url' } }).success).toBe(false);
  });
});
