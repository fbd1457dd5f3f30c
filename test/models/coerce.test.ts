import { describe, expect, it } from 'vitest';
import { checkValue, coerceText } from '../../src/models/coerce.js';

const ok = (value: unknown) => ({ ok: true, value });

describe('coerceText', () => {
  it('coerces integers, refusing fractions, words and unsafe sizes', () => {
    expect(coerceText('integer', ' 42 ')).toEqual(ok(42));
    expect(coerceText('integer', '-7')).toEqual(ok(-7));
    expect(coerceText('integer', '3.5')).toMatchObject({ ok: false, reason: expect.stringContaining('expected an integer, got "3.5"') });
    expect(coerceText('integer', 'x')).toMatchObject({ ok: false });
    expect(coerceText('integer', '1e3')).toMatchObject({ ok: false });
    expect(coerceText('integer', '99999999999999999999')).toMatchObject({ ok: false, reason: expect.stringContaining('too large') });
  });

  it('coerces decimal numbers only', () => {
    expect(coerceText('number', '0.25')).toEqual(ok(0.25));
    expect(coerceText('number', '-1e-3')).toEqual(ok(-0.001));
    expect(coerceText('number', '.5')).toEqual(ok(0.5));
    for (const bad of ['0x10', 'Infinity', 'NaN', '1,5', 'abc'])
      expect(coerceText('number', bad)).toMatchObject({ ok: false, reason: expect.stringContaining('expected a number') });
    expect(coerceText('number', '1e999')).toMatchObject({ ok: false, reason: expect.stringContaining('out of range') });
  });

  it('coerces the six boolean words in any case', () => {
    for (const t of ['true', 'TRUE', '1', 'yes', 'Yes']) expect(coerceText('boolean', t)).toEqual(ok(true));
    for (const f of ['false', 'False', '0', 'no', 'NO']) expect(coerceText('boolean', f)).toEqual(ok(false));
    expect(coerceText('boolean', 'maybe')).toMatchObject({ ok: false, reason: expect.stringContaining('true/false/1/0/yes/no') });
    expect(coerceText('boolean', 'on')).toMatchObject({ ok: false });
  });

  it('keeps strings verbatim, spaces included', () => {
    expect(coerceText('string', '  CCO ')).toEqual(ok('  CCO '));
    expect(coerceText('string', '42')).toEqual(ok('42'));
  });

  it('parses JSON for object and array inputs and checks the kind', () => {
    expect(coerceText('object', '{"C": 12}')).toEqual(ok({ C: 12 }));
    expect(coerceText('array', '["mw", "logp"]')).toEqual(ok(['mw', 'logp']));
    expect(coerceText('object', '[1]')).toMatchObject({ ok: false, reason: 'expected a JSON object, got an array' });
    expect(coerceText('array', '{}')).toMatchObject({ ok: false, reason: 'expected a JSON array, got an object' });
    expect(coerceText('object', '{C: 12}')).toMatchObject({ ok: false, reason: expect.stringContaining('expected a JSON object, got "{C: 12}"') });
  });

  it('leaves types the interface does not name as text', () => {
    expect(coerceText('file', 'file_1')).toEqual(ok('file_1'));
    expect(coerceText(null, '7')).toEqual(ok('7'));
    expect(coerceText('Integer', '7')).toEqual(ok(7));
  });
});

describe('checkValue', () => {
  it('refuses JSON cells nested too deep or holding a lone surrogate escape', () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    expect(coerceText('array', deep)).toMatchObject({ ok: false, reason: expect.stringContaining('(nested deeper than 256 levels)') });
    expect(coerceText('json', '"\\ud800"')).toMatchObject({ ok: false, reason: expect.stringContaining('lone surrogate') });
    expect(coerceText('object', '{"a": 1.50}')).toMatchObject({ ok: true });
  });

  it('checks JSON values without converting them', () => {
    expect(checkValue('integer', 3)).toEqual(ok(3));
    expect(checkValue('integer', '3')).toEqual({ ok: false, reason: 'expected an integer, got a string' });
    expect(checkValue('integer', 3.5)).toEqual({ ok: false, reason: 'expected an integer, got a number' });
    expect(checkValue('number', 3.5)).toEqual(ok(3.5));
    expect(checkValue('boolean', 'true')).toMatchObject({ ok: false });
    expect(checkValue('string', 1)).toEqual({ ok: false, reason: 'expected a string, got an integer' });
    expect(checkValue('object', null)).toEqual({ ok: false, reason: 'expected a JSON object, got null' });
    expect(checkValue('array', [1])).toEqual(ok([1]));
    expect(checkValue('file', 'file_1')).toEqual(ok('file_1'));
    expect(checkValue('mesh', { any: 1 })).toEqual(ok({ any: 1 }));
  });
});
