import { describe, expect, it } from 'vitest';
import { parseDuration, parseScript, parseSize } from '../../src/sim/directives.js';

describe('parseScript', () => {
  it('takes directives out of the question, keeping their order', () => {
    const s = parseScript('Fold @confirm=12.5 this @choice=multi @image @tool=x_y protein @files=md,png:noname @duration=2s');
    expect(s.question).toBe('Fold this protein');
    expect(s.pauses).toEqual([
      { tool: 'confirm_scope', cost: 12.5 },
      { tool: 'ask_choice', allowMultiple: true },
      { tool: 'request_quality_image' },
      { tool: 'x_y', unknown: true },
    ]);
    expect(s.files).toEqual([
      { kind: 'md', named: true },
      { kind: 'png', named: false },
    ]);
    expect(s.durationMs).toBe(2000);
  });

  it('reads the remaining directives', () => {
    const s = parseScript('q @fail @status=weird @deltas=0 @size=50mb @filename=a%20b @confirm @choice');
    expect(s).toMatchObject({ fail: true, status: 'weird', deltas: 0, sizeBytes: 50 * 1024 * 1024, filename: 'a b' });
    expect(s.pauses).toEqual([{ tool: 'confirm_scope' }, { tool: 'ask_choice', allowMultiple: false }]);
    expect(parseScript('q @nosearch').search).toBe(false);
    expect(parseScript('q @nosearch=1')).toMatchObject({ question: 'q @nosearch=1', search: true });
  });

  it('has defaults when nothing is scripted', () => {
    expect(parseScript('  just a question  ')).toEqual({
      question: 'just a question',
      durationMs: undefined,
      pauses: [],
      files: [],
      filename: undefined,
      sizeBytes: undefined,
      fail: false,
      status: undefined,
      deltas: 4,
      hostile: false,
      search: true,
      hugeChars: undefined,
      deepLevels: undefined,
      repeatOptions: false,
    });
  });

  it('leaves unknown or malformed directives in the text', () => {
    const s = parseScript('mail me @home @duration=soon @files=exe @confirm= @deltas=x @deep=0 @huge=lots @repeat_options=1 @filename=%E0%A4%A');
    expect(s.question).toBe('mail me @home @duration=soon @files=exe @confirm= @deltas=x @deep=0 @huge=lots @repeat_options=1');
    expect(s.filename).toBe('%E0%A4%A');
    expect(s.pauses).toEqual([]);
  });
});

describe('parseScript: the hostile values a careless service may send', () => {
  it('sends any number as a cost (1e308, -140) and any other value as its text (NaN, words)', () => {
    const s = parseScript('q @confirm=1e308 @confirm=-140 @confirm=about%2030%20credits @confirm=NaN');
    expect(s.question).toBe('q');
    expect(s.pauses).toEqual([
      { tool: 'confirm_scope', cost: 1e308 },
      { tool: 'confirm_scope', cost: -140 },
      { tool: 'confirm_scope', cost: 'about 30 credits' },
      { tool: 'confirm_scope', cost: 'NaN' },
    ]);
  });

  it('reads @huge, @deep and @repeat_options', () => {
    expect(parseScript('q @huge=64kb @deep=5000 @repeat_options')).toMatchObject({ question: 'q', hugeChars: 65536, deepLevels: 5000, repeatOptions: true });
  });
});

describe('parseDuration / parseSize', () => {
  it('reads units', () => {
    expect(parseDuration('250')).toBe(250);
    expect(parseDuration('250ms')).toBe(250);
    expect(parseDuration('1.5s')).toBe(1500);
    expect(parseDuration('2m')).toBe(120_000);
    expect(parseDuration('2h')).toBeUndefined();
    expect(parseSize('1000')).toBe(1000);
    expect(parseSize('64kb')).toBe(65536);
    expect(parseSize('1G')).toBe(1024 ** 3);
    expect(parseSize('1.5mb')).toBeUndefined();
  });
});
