import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { parseConfigText, readConfigFile } from '../../src/config/config-file.js';

function problemsOf(text: string): unknown {
  try {
    parseConfigText(text, 'c.yaml');
  } catch (err) {
    expect(err).toBeInstanceOf(InputError);
    return (err as InputError).problems;
  }
  throw new Error('did not throw');
}

describe('parseConfigText', () => {
  const text = ['name: demo', 'policy:', '  ask_choice:', '    prefer:', '      - a', '      - b', 'list: [1, 2]', ''].join('\n');

  it('returns plain values', () => {
    expect(parseConfigText(text, 'c.yaml').value).toEqual({ name: 'demo', policy: { ask_choice: { prefer: ['a', 'b'] } }, list: [1, 2] });
    expect(parseConfigText('', 'c.yaml').value).toBeNull();
  });

  it('finds the line of a key path, falling back to the deepest known node', () => {
    const { lineOf } = parseConfigText(text, 'c.yaml');
    expect(lineOf(['name'])).toBe(1);
    expect(lineOf(['policy', 'ask_choice'])).toBe(3);
    expect(lineOf(['policy', 'ask_choice', 'prefer', 1])).toBe(6);
    expect(lineOf(['policy', 'ask_choice', 'missing'])).toBe(3);
    expect(lineOf(['list', 1])).toBe(7);
    expect(lineOf([])).toBe(1);
  });

  it('reads JSON, as YAML does', () => {
    const { value, lineOf } = parseConfigText('{\n  "a": {\n    "b": 1\n  }\n}', 'c.json');
    expect(value).toEqual({ a: { b: 1 } });
    expect(lineOf(['a', 'b'])).toBe(3);
  });

  it('lists every syntax error with its line and a one-line reason', () => {
    expect(problemsOf('a: 1\na: 2\n')).toEqual([{ file: 'c.yaml', line: 2, reason: 'Map keys must be unique' }]);
    expect(problemsOf('a: "open\n')).toEqual([expect.objectContaining({ file: 'c.yaml', line: expect.any(Number) })]);
  });

  it('refuses several documents in one file', () => {
    expect(problemsOf('a: 1\n---\nb: 2\n')).toEqual([
      { file: 'c.yaml', line: 2, reason: 'Source contains multiple documents; please use YAML.parseAllDocuments()' },
    ]);
  });

  it('turns an unresolved alias into a problem', () => {
    expect(problemsOf('a: *nowhere\n')).toEqual([expect.objectContaining({ file: 'c.yaml' })]);
  });
});

describe('readConfigFile', () => {
  it('names a file it cannot read', async () => {
    await expect(readConfigFile('/nonexistent/c.yaml')).rejects.toThrow('/nonexistent/c.yaml: cannot read: no such file');
    await expect(readConfigFile('/tmp')).rejects.toThrow('/tmp: cannot read: is a directory');
  });
});
