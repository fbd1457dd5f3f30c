import { describe, expect, it } from 'vitest';
import type { ModelField } from '../../src/api/index.js';
import { checkInputs, classifyField, inputsByName } from '../../src/models/validate.js';

const fields: ModelField[] = [
  { name: 'sequence', type: 'string', required: true },
  { name: 'recycles', type: 'integer', required: false, default: 3 },
  { name: 'id', type: 'string', required: false },
];

describe('classifyField', () => {
  const inputs = inputsByName(fields);
  it('sorts columns into inputs, id and meta; an input named id stays an input', () => {
    expect(classifyField('sequence', inputs, 'fold')).toMatchObject({ kind: 'input' });
    expect(classifyField('id', inputs, 'fold')).toMatchObject({ kind: 'input' });
    expect(classifyField('id', inputsByName(fields.slice(0, 2)), 'fold')).toEqual({ kind: 'id' });
    expect(classifyField('meta.note', inputs, 'fold')).toEqual({ kind: 'meta', key: 'note' });
  });

  it('refuses anything else, naming the inputs and hinting at case', () => {
    const r = classifyField('Sequence', inputs, 'fold');
    expect(r).toEqual(expect.stringContaining('not an input of model fold (did you mean "sequence"?'));
    expect(r).toEqual(expect.stringContaining('its inputs: sequence, recycles, id'));
    expect(classifyField('meta.', inputs, 'fold')).toEqual(expect.stringContaining('not an input'));
  });
});

describe('checkInputs', () => {
  it('reports a missing required input and leaves optional ones out', () => {
    expect(checkInputs(fields, new Map([['recycles', '2']]), 'text')).toEqual({
      inputs: { recycles: 2 },
      problems: [{ field: 'sequence', reason: 'required input missing (string)' }],
    });
  });

  it('counts an empty text cell as absent but an empty JSON string as given', () => {
    expect(checkInputs(fields, new Map([['sequence', '']]), 'text').problems).toHaveLength(1);
    expect(checkInputs(fields, new Map([['sequence', '']]), 'json')).toEqual({ inputs: { sequence: '' }, problems: [] });
  });

  it('reports every bad value of a row', () => {
    const r = checkInputs(fields, new Map<string, unknown>([['sequence', 5], ['recycles', 'x']]), 'json');
    expect(r.problems.map((p) => p.field)).toEqual(['sequence', 'recycles']);
  });
});
