import { describe, expect, it } from 'vitest';
import { describeReceivers } from '../../src/read/receivers.js';
import type { NotifySettings } from '../../src/store/notify-settings.js';

describe('receivers in words', () => {
  it('describes receivers by host, never by path (a webhook path is a secret)', () => {
    // As `--notify https://hooks.slack.com/services/T0/B0/SECRET --notify-command x` stores them.
    const n: NotifySettings = { urls: ['https://hooks.slack.com/services/T0/B0/SECRET'], format: 'json', includeQuestion: false, pageUrl: null, digestMs: 300_000, remindMs: 3_600_000, stalledMs: 900_000 };
    expect(describeReceivers(n)).toBe('1 URL (hooks.slack.com), json');
    const text = describeReceivers(n, [{ host: 'build-1', pid: 12 }]);
    expect(text).toBe('1 URL (hooks.slack.com) and a command on pid 12 on build-1, json');
    expect(text).not.toContain('SECRET');
    expect(describeReceivers({ ...n, urls: [] })).toBe('no URL, json');
  });
});
