import { describe, expect, it } from 'vitest';
import { applyOverrides } from '../../src/runner/batch-overrides.js';

const batch = {
  settings: { concurrency: 8, follow: 'sse' as const, download: { enabled: true, concurrency: 4, out: '/data/out' }, pipelineFile: null, service: 'url' as const },
  policy: { confirm_scope: { approve_max_cost: 10, otherwise: 'decline' } },
  baseUrl: 'http://svc/api/v1',
};

describe('applyOverrides', () => {
  it('keeps everything the batch was started with when nothing is given again', () => {
    const m = applyOverrides(batch, {});
    expect(m).toEqual({ settings: batch.settings, policy: batch.policy, baseUrl: batch.baseUrl, changes: [] });
  });

  it('overrides what is given again and says what changed', () => {
    const m = applyOverrides(batch, { concurrency: 20, policy: null, download: false, follow: 'poll', baseUrl: 'http://other/api/v1' });
    expect(m.settings).toMatchObject({ concurrency: 20, follow: 'poll', download: { enabled: false, out: '/data/out' } });
    expect(m.policy).toBeNull();
    expect(m.baseUrl).toBe('http://other/api/v1');
    expect(m.changes).toEqual([
      'concurrency: 8 → 20',
      'follow: sse → poll',
      'download: on → off',
      'policy: replaced (was rules for confirm_scope; now none (every pause held))',
      'base URL: http://svc/api/v1 → http://other/api/v1',
    ]);
    // The batch record itself is not touched.
    expect(batch.settings.concurrency).toBe(8);
  });

  it('a simulated batch given a base URL says it ran on sim, not (none)', () => {
    const simBatch = { ...batch, settings: { ...batch.settings, service: 'sim' as const }, baseUrl: null };
    expect(applyOverrides(simBatch, { baseUrl: 'http://127.0.0.1:8787/api/v1' }).changes).toEqual(['base URL: sim → http://127.0.0.1:8787/api/v1']);
  });

  it('a value given again that equals the batch\'s is no change', () => {
    expect(applyOverrides(batch, { concurrency: 8, policy: batch.policy }).changes).toEqual([]);
  });

  it('records receivers given again (notify), said by host and format, never with a URL\'s path', () => {
    const notify = { urls: ['https://hooks.slack.com/services/T0/B0/SECRET'], format: 'slack' as const, includeQuestion: false, pageUrl: null, digestMs: 300_000, remindMs: null, stalledMs: null };
    const m = applyOverrides(batch, { notify });
    expect(m.settings.notify).toEqual(notify);
    expect(m.changes).toEqual(['notify: none → 1 URL (hooks.slack.com), slack']);
    expect(applyOverrides({ ...batch, settings: m.settings }, { notify }).changes).toEqual([]);
    // No URL given (a worker's own --notify-command alone): the batch's URLs stay.
    expect(applyOverrides({ ...batch, settings: m.settings }, { notify: { ...notify, urls: [] } })).toMatchObject({ changes: [], settings: { notify } });
  });
});
