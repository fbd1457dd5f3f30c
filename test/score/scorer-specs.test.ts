import { describe, expect, it } from 'vitest';
import { canonicalJson, scorersForStore, scorersFromStore, scorerVersion } from '../../src/score/scorer-specs.js';
import type { ScorerSpec } from '../../src/score/types.js';

describe('a scorer apart from its file', () => {
  it('gives one canonical JSON however the keys were written, and each kind and settings a version of its own', () => {
    expect(canonicalJson({ b: 1, a: [{ y: 2, x: 1 }], c: undefined })).toBe('{"a":[{"x":1,"y":2}],"b":1}');
    expect(scorerVersion('number', { tolerance: 0 })).toBe(scorerVersion('number', JSON.parse('{"tolerance":0}')));
    expect(scorerVersion('number', { tolerance: 0 })).toMatch(/^[0-9a-f]{16}$/);
    expect(scorerVersion('number', { tolerance: 0.5 })).not.toBe(scorerVersion('number', { tolerance: 0 }));
    expect(scorerVersion('includes', {})).not.toBe(scorerVersion('exact', {}));
  });
});

describe('scorers as a batch keeps them', () => {
  const specs: ScorerSpec[] = [
    { name: 'prog', kind: 'command', version: scorerVersion('command', { command: './judge.sh', timeout_seconds: 30 }), settings: { command: './judge.sh', timeout_seconds: 30 } },
    { name: 'pat', kind: 'regex', version: scorerVersion('regex', { pattern: 'a+', flags: '' }), settings: { pattern: 'a+', flags: '' } },
  ];

  it('stores a command scorer without its program, and reads it back without one whatever the row holds', () => {
    const stored = scorersForStore(specs);
    expect(JSON.stringify(stored)).not.toContain('judge.sh');
    expect(stored[0]).toEqual({ name: 'prog', kind: 'command', version: specs[0]!.version, settings: { timeout_seconds: 30 } });
    expect(stored[1]).toBe(specs[1]);
    // A row written by hand with a program in it: the program never comes back.
    expect(scorersFromStore(specs)).toEqual(stored);
  });

  it('leaves out a stored entry that does not hold up: a pattern that does not compile, a tolerance that is text, a bad version or kind', () => {
    const ok = specs[1]!;
    const back = scorersFromStore([
      ok,
      { ...ok, name: 'bad', settings: { pattern: '(' } },
      { name: 'tol', kind: 'number', version: ok.version, settings: { tolerance: 'huge' } },
      { ...ok, name: 'v', version: 'DROP TABLE' },
      { ...ok, name: 'k', kind: 'shell' },
      null,
    ]);
    expect(back?.map((s) => s.name)).toEqual(['pat']);
    expect(scorersFromStore(undefined)).toBeUndefined();
  });
});
