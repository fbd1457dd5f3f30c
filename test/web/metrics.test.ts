import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labelValue } from '../../src/web/metrics.js';
import { bearer, webFixture, type WebFixture } from './support/web-fixture.js';

describe('GET /metrics', () => {
  let f: WebFixture;
  beforeAll(async () => {
    f = await webFixture({ name: 'we"ird\\name' });
  }, 60_000);
  afterAll(async () => f?.close());

  it('reports every batch from the store in the Prometheus text format, resq_ names', async () => {
    const r = await fetch(`${f.server.origin}/metrics`, { headers: bearer(f.server) });
    expect(r.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await r.text();
    const l = 'batch="we\\"ird\\\\name"';
    expect(text).toContain('# TYPE resq_items gauge');
    expect(text).toContain(`resq_items{${l},state="held"} 3`);
    expect(text).toContain(`resq_items{${l},state="completed"} 2`);
    expect(text).toContain(`resq_items_held{${l}} 3`);
    expect(text).toContain(`resq_runs_in_flight{${l}} 0`);
    expect(text).toContain(`resq_concurrency_cap{${l}} 4`);
    expect(text).toContain(`resq_workers_live{${l}} 0`);
    expect(text).toMatch(new RegExp(`resq_files\\{${l.replace(/[\\"]/g, (c) => `\\${c}`)},state="downloaded"\\} [1-9]`));
    expect(text).toContain('# TYPE resq_approved_cost_credits_total counter');
    // every sample line is `name{labels} number`
    for (const line of text.trim().split('\n').filter((x) => !x.startsWith('#'))) expect(line).toMatch(/^resq_[a-z_]+\{.*\} -?\d+(\.\d+)?$/);
  });

  it('labelValue escapes backslash, quote and line break', () => {
    expect(labelValue('a\\b"c\nd')).toBe('a\\\\b\\"c\\nd');
  });
});
