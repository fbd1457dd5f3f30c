import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { NOTIFY_DEFAULTS, notifyCommandOf, notifyFromFlags } from '../../src/cli/notify-settings.js';

describe('notification settings from flags', () => {
  it('gives nothing without a receiver, and the defaults with one', () => {
    expect(notifyFromFlags({}, {})).toBeUndefined();
    expect(notifyFromFlags({ notify: ['https://hooks.example.com/T/B/x'] }, { RESQ_PAGE_URL: 'https://resq.example.com/' })).toEqual({
      urls: ['https://hooks.example.com/T/B/x'],
      format: 'json',
      includeQuestion: false,
      pageUrl: 'https://resq.example.com',
      digestMs: NOTIFY_DEFAULTS.digestMs,
      remindMs: NOTIFY_DEFAULTS.remindMs,
      stalledMs: NOTIFY_DEFAULTS.stalledMs,
    });
  });

  it('reads several URLs, the format, include, durations; off turns a reminder off; the command is never among what is stored', () => {
    const flags = { notify: ['http://a.test/x', 'http://b.test/y'], notifyCommand: 'mail -s resq team@x', notifyFormat: 'slack', notifyInclude: ['question'], notifyDigest: '90s', notifyRemind: 'off', notifyStalled: '2h', pageUrl: 'http://page.test' };
    const n = notifyFromFlags(flags, {})!;
    expect(n).toMatchObject({ format: 'slack', includeQuestion: true, digestMs: 90_000, remindMs: null, stalledMs: 7_200_000, pageUrl: 'http://page.test' });
    expect(n.urls).toHaveLength(2);
    expect(JSON.stringify(n)).not.toContain('mail');
    // The command is this process's own.
    expect(notifyCommandOf(flags)).toBe('mail -s resq team@x');
    expect(notifyCommandOf({})).toBeNull();
    expect(() => notifyCommandOf({ notifyCommand: '  ' })).toThrow(/^--notify-command: give a command/);
  });

  it('a command alone: settings with no URL on a batch that tells no one, and nothing changed on one that does', () => {
    expect(notifyFromFlags({ notifyCommand: 'x' }, {})).toMatchObject({ urls: [], format: 'json' });
    const was = notifyFromFlags({ notify: ['http://a.test/x'] }, {})!;
    expect(notifyFromFlags({ notifyCommand: 'x' }, {}, was)).toBeUndefined();
    expect(notifyFromFlags({ notifyCommand: 'x', notifyFormat: 'slack' }, {}, was)).toEqual({ ...was, format: 'slack' });
  });

  it('keeps the batch\'s receivers when only a timing is given again (resume)', () => {
    const was = notifyFromFlags({ notify: ['http://a.test/x'] }, {})!;
    expect(notifyFromFlags({ notifyDigest: '1m' }, {}, was)).toEqual({ ...was, digestMs: 60_000 });
    expect(notifyFromFlags({}, {}, was)).toBeUndefined();
  });

  it('refuses a bad URL, format, include or duration with one line naming the flag', () => {
    const cases: [Parameters<typeof notifyFromFlags>[0], RegExp][] = [
      [{ notify: ['not a url'] }, /^--notify: not a URL/],
      [{ notify: ['ftp://x.test/a'] }, /^--notify: expected an http:\/\/ or https:\/\/ URL/],
      [{ notify: ['http://user:pw@x.test/a'] }, /^--notify: a user name or password/],
      [{ notify: ['http://x.test'], notifyFormat: 'xml' }, /^--notify-format: expected json or slack/],
      [{ notify: ['http://x.test'], notifyInclude: ['answer'] }, /^--notify-include: only "question"/],
      [{ notify: ['http://x.test'], notifyDigest: 'soon' }, /^--notify-digest: expected a duration/],
      [{ notifyDigest: '5m' }, /^--notify: give a receiver URL/],
    ];
    for (const [flags, want] of cases) {
      const e = (() => {
        try {
          notifyFromFlags(flags, {});
        } catch (err) {
          return err;
        }
        return null;
      })();
      expect(e, JSON.stringify(flags)).toBeInstanceOf(InputError);
      expect((e as Error).message).toMatch(want);
      expect((e as Error).message).not.toContain('\n');
    }
  });
});
