import { describe, expect, it } from 'vitest';
import type { ScoreInput } from '../../src/score/judgement.js';
import { firstNumber, globRegExp, judgeLocally, valueAt } from '../../src/score/local-scorers.js';
import { parseScorers } from '../../src/score/scorers-file.js';
import type { ScorerSpec } from '../../src/score/types.js';
import { parseStoredJson } from '../../src/text/json-text.js';

/** The one scorer a line of YAML makes. */
const scorer = (yaml: string): ScorerSpec => parseScorers(`scorers: [{name: s, ${yaml}}]`, 's.yaml')[0]!;
const item = (text: string | null, expected: unknown, files?: ScoreInput['files']): ScoreInput => ({ id: 'a', question: 'q?', expected, text, ...(files ? { files } : {}) });
const pass = (spec: ScorerSpec, it: ScoreInput) => judgeLocally(spec, it).pass;

describe('local scorers', () => {
  it('includes: the expected text inside the answer, case and spacing ignored; a number expected by its text', () => {
    const s = scorer('kind: includes');
    expect(judgeLocally(s, item('The capital is\n  PARIS, France.', 'paris,   france'))).toEqual({ pass: true, score: 1, reason: 'contains "paris,   france"' });
    expect(judgeLocally(s, item('The capital is Lyon.', 'Paris'))).toEqual({ pass: false, score: 0, reason: 'does not contain "Paris"' });
    expect(pass(s, item('cost 42 credits', 42))).toBe(true);
    expect(pass(s, item(null, 'Paris'))).toBe(false);
    expect(judgeLocally(s, item('Paris', null))).toEqual({ pass: null, score: null, reason: 'no expected answer' });
    expect(judgeLocally(s, item('Paris', { city: 'Paris' })).pass).toBeNull();
  });

  it('exact: the answer is the expected text, surrounding spacing aside, case kept', () => {
    const s = scorer('kind: exact');
    expect(pass(s, item('  Paris\n', 'Paris'))).toBe(true);
    expect(pass(s, item('paris', 'Paris'))).toBe(false);
    expect(pass(s, item('Paris, France', 'Paris'))).toBe(false);
  });

  it('regex: the pattern (with its flags) found in the answer, no expected answer needed', () => {
    const s = scorer(String.raw`kind: regex, pattern: "approved \\(cost \\d+\\)"`);
    expect(judgeLocally(s, item('confirm_scope: approved (cost 12).', null))).toEqual({ pass: true, score: 1, reason: String.raw`matches /approved \(cost \d+\)/` });
    expect(pass(s, item('Approved (cost 12)', null))).toBe(false);
    expect(pass(scorer(String.raw`kind: regex, pattern: "approved \\(cost \\d+\\)", flags: i`), item('Approved (cost 12)', null))).toBe(true);
  });

  it('number: the first number in the answer within tolerance of the expected number, however the expected number is written', () => {
    const s = scorer('kind: number, tolerance: 0.01');
    expect(judgeLocally(s, item('## Answer\n\nAbout 3.141 units, not 9.', 3.14))).toEqual({ pass: true, score: 1, reason: '3.141 is within 0.01 of 3.14' });
    expect(pass(s, item('About 3.2 units.', 3.14))).toBe(false);
    expect(pass(s, item('Total: 1,234.5', '1234.5'))).toBe(true);
    expect(pass(s, item('It fell by -2.5e1 points', -25))).toBe(true);
    // A number kept as its text (a JSONL 1.50) is that number.
    expect(pass(s, item('1.5', parseStoredJson('1.50')))).toBe(true);
    expect(judgeLocally(s, item('no digits here', 3))).toEqual({ pass: false, score: 0, reason: 'no number in the answer' });
    expect(judgeLocally(s, item('42', 'many')).pass).toBeNull();
    expect(firstNumber('v2 of 3')).toBe(2);
  });

  it('files: each name glob matched by a file the run made, each role found', () => {
    const files = [{ name: 'table.csv', role: 'dataset' }, { name: null, role: 'figure' }];
    expect(pass(scorer('kind: files, names: ["*.csv"]'), item('x', null, files))).toBe(true);
    expect(judgeLocally(scorer('kind: files, names: ["*.csv", "*.pdb"]'), item('x', null, files))).toEqual({ pass: false, score: 0, reason: 'no file named "*.pdb"' });
    expect(pass(scorer('kind: files, roles: [figure]'), item('x', null, files))).toBe(true);
    expect(pass(scorer('kind: files, roles: [structureId]'), item('x', null, []))).toBe(false);
    expect(globRegExp('out/**/*.c?v').test('out/a/b/t.csv')).toBe(true);
    expect(globRegExp('*.csv').test('a/t.csv')).toBe(false);
  });

  it('json: the path into the first ```json block equals the expected value (an object, a number, or CSV text)', () => {
    const s = scorer('kind: json, path: "result.items[1].total"');
    const answer = 'Here:\n```json\n{"result": {"items": [{"total": 1}, {"total": 12, "unit": "mg"}]}}\n```\n```json\n{"result": 0}\n```';
    expect(judgeLocally(s, item(answer, 12))).toEqual({ pass: true, score: 1, reason: 'result.items[1].total is the expected value' });
    expect(pass(s, item(answer, '12'))).toBe(true);
    expect(pass(s, item(answer, 13))).toBe(false);
    expect(pass(scorer('kind: json, path: "result.items[1]"'), item(answer, { unit: 'mg', total: 12 }))).toBe(true);
    expect(judgeLocally(s, item('no block', 12))).toEqual({ pass: false, score: 0, reason: 'no ```json block in the answer' });
    expect(judgeLocally(s, item('```json\n{oops\n```', 12)).reason).toBe('the ```json block is not valid JSON');
    expect(judgeLocally(s, item(answer, null)).pass).toBeNull();
    expect(valueAt({ a: [{ b: 1 }] }, '$.a[0].b')).toBe(1);
    expect(valueAt({ a: { 0: 1 } }, 'a[0]')).toBeUndefined();
  });
});
