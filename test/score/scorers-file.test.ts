import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { parseScorers, parseScorersFile } from '../../src/score/scorers-file.js';
import { scorerVersion } from '../../src/score/scorer-specs.js';

const ISSUE_FILE = `scorers:
  - name: mentions
    kind: includes          # the answer text contains the expected text
  - name: exact
    kind: exact
  - name: pattern
    kind: regex
    pattern: "approved \\\\(cost \\\\d+\\\\)"
  - name: value
    kind: number
    tolerance: 0.01
  - name: table
    kind: files
    names: ["*.csv"]
  - name: judged
    kind: agent
    rubric: Does the answer state the same result as the expected answer?
  - name: total
    kind: json
    path: result.total
  - name: mine
    kind: command
    command: ./judge.sh
`;

/** The one line an InputError says for `text`. */
function problemOf(text: string): string {
  try {
    parseScorers(text, 'scorers.yaml');
  } catch (e) {
    expect(e).toBeInstanceOf(InputError);
    expect((e as Error).message).not.toContain('\n');
    return (e as Error).message;
  }
  throw new Error('parsed without a problem');
}

describe('scorers file', () => {
  it("reads the issue's example: every kind, its settings with defaults, a version per scorer", () => {
    const specs = parseScorers(ISSUE_FILE, 'scorers.yaml');
    expect(specs.map((s) => [s.name, s.kind, s.settings])).toEqual([
      ['mentions', 'includes', {}],
      ['exact', 'exact', {}],
      ['pattern', 'regex', { pattern: 'approved \\(cost \\d+\\)', flags: '' }],
      ['value', 'number', { tolerance: 0.01 }],
      ['table', 'files', { names: ['*.csv'] }],
      ['judged', 'agent', { rubric: 'Does the answer state the same result as the expected answer?' }],
      ['total', 'json', { path: 'result.total' }],
      ['mine', 'command', { command: './judge.sh', timeout_seconds: 30 }],
    ]);
    for (const s of specs) expect(s.version).toBe(scorerVersion(s.kind, s.settings));
    expect(specs[0]!.version).toMatch(/^[0-9a-f]{16}$/);
  });

  it('gives the same settings the same version however written, and changed settings another', () => {
    const [a] = parseScorers('scorers: [{name: v, kind: number}]', 'a.yaml');
    const [b] = parseScorers('{"scorers": [{"kind": "number", "tolerance": 0, "name": "w"}]}', 'b.json');
    const [c] = parseScorers('scorers: [{name: v, kind: number, tolerance: 0.5}]', 'c.yaml');
    expect(a!.version).toBe(b!.version);
    expect(c!.version).not.toBe(a!.version);
  });

  it('names the file, line and field of a bad scorer in one line', () => {
    expect(problemOf('scorers:\n  - name: a\n    kind: includes\n  - name: b\n    kind: regx\n')).toBe('scorers.yaml:5: scorers.1.kind: must be one of includes, exact, regex, number, files, json, command, agent');
    expect(problemOf('scorers:\n  - name: a\n    kind: regex\n    pattern: "(unclosed"\n')).toBe('scorers.yaml:4: scorers.0.pattern: not a valid regular expression');
    expect(problemOf('scorers:\n  - name: a\n    kind: number\n    tolerance: -1\n')).toBe('scorers.yaml:4: scorers.0.tolerance: must be at least 0');
    expect(problemOf('scorers:\n  - name: a\n    kind: number\n    tolerence: 1\n')).toBe('scorers.yaml:4: scorers.0.tolerence: unknown key: did you mean `tolerance`?');
    expect(problemOf('scorers:\n  - name: a\n    kind: agent\n')).toBe('scorers.yaml:2: scorers.0.rubric: missing');
    expect(problemOf('scorers:\n  - name: a\n    kind: files\n')).toMatch(/^scorers\.yaml:2: scorers\.0: give `names` \(globs\) or `roles`$/);
    expect(problemOf('scorers:\n  - name: a\n    kind: exact\n  - name: a\n    kind: exact\n')).toBe('scorers.yaml:4: scorers.1.name: "a" is named twice');
    expect(problemOf('scorers:\n  - name: "a b"\n    kind: exact\n')).toBe('scorers.yaml:2: scorers.0.name: must be 1 to 64 letters, digits, `_` or `-`');
    expect(problemOf('scorers: []\n')).toBe('scorers.yaml:1: scorers: must be a non-empty list of scorers');
    expect(problemOf('scorer:\n  - name: a\n')).toBe('scorers.yaml:1: scorer: unknown key: the file holds `scorers:` only');
    expect(problemOf('scorers: [\n')).toMatch(/^scorers\.yaml:\d+: /);
  });

  const dir = mkdtempSync(join(tmpdir(), 'resq-scorers-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a file by its path, and names a file that is not there', async () => {
    const path = join(dir, 'scorers.yaml');
    writeFileSync(path, ISSUE_FILE);
    expect((await parseScorersFile(path)).length).toBe(8);
    await expect(parseScorersFile(join(dir, 'none.yaml'))).rejects.toThrow(`${join(dir, 'none.yaml')}: cannot read: no such file`);
  });
});
