import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { loadPolicyFile, parsePolicy } from '../../src/config/index.js';

/** The message of the InputError `fn` throws (one line a problem). */
function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(InputError);
    return (err as InputError).message;
  }
  throw new Error('did not throw');
}

async function rejection(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(InputError);
    return (err as InputError).message;
  }
  throw new Error('did not reject');
}

function tempFile(name: string, text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'resq-policy-')), name);
  writeFileSync(path, text);
  return path;
}

describe('parsePolicy', () => {
  it('accepts the documented policy and fills in defaults', () => {
    expect(
      parsePolicy(
        {
          confirm_scope: { approve_max_cost: 10, batch_budget: 200, otherwise: 'decline' },
          ask_choice: { prefer: ['b', 'a', 3], otherwise: 'first', note: 'chosen by policy' },
          request_quality_image: 'approve',
          unknown: 'hold',
        },
        'p.yaml',
      ),
    ).toEqual({
      confirm_scope: { approve_max_cost: 10, batch_budget: 200, otherwise: 'decline' },
      ask_choice: { prefer: ['b', 'a', 3], otherwise: 'first', note: 'chosen by policy' },
      request_quality_image: 'approve',
      unknown: 'hold',
    });
    expect(parsePolicy({ confirm_scope: { approve_max_cost: 0 }, ask_choice: {} }, 'p.yaml')).toEqual({
      confirm_scope: { approve_max_cost: 0, otherwise: 'hold' },
      ask_choice: { prefer: [], otherwise: 'hold' },
    });
  });

  it('names unknown keys by their path, so typos are caught', () => {
    expect(messageOf(() => parsePolicy({ confirm_scope: { approve_max_cots: 1, approve_max_cost: 1 }, ask_choise: {} }, 'p.yaml'))).toBe(
      ['p.yaml: confirm_scope.approve_max_cots: unknown key', 'p.yaml: ask_choise: unknown key'].join('\n'),
    );
  });

  it('names every bad value by its key path', () => {
    const bad = {
      confirm_scope: { approve_max_cost: -1, batch_budget: '200', otherwise: 'approve' },
      ask_choice: { prefer: ['a', true, ''], otherwise: 'some', note: '' },
      request_quality_image: 'yes',
    };
    expect(messageOf(() => parsePolicy(bad, 'p.yaml')).split('\n')).toEqual([
      'p.yaml: confirm_scope.approve_max_cost: must be at least 0',
      'p.yaml: confirm_scope.batch_budget: must be a number, found a string',
      'p.yaml: confirm_scope.otherwise: must be "decline" or "hold"',
      'p.yaml: ask_choice.prefer.1: must be a string or a number',
      'p.yaml: ask_choice.prefer.2: must not be empty',
      'p.yaml: ask_choice.otherwise: must be "first" or "all" or "decline" or "hold"',
      'p.yaml: ask_choice.note: must not be empty',
      'p.yaml: request_quality_image: must be "approve" or "decline" or "hold"',
    ]);
  });

  it('says a required key is missing', () => {
    expect(messageOf(() => parsePolicy({ confirm_scope: { batch_budget: 5 } }, 'p.yaml'))).toBe(
      'p.yaml: confirm_scope.approve_max_cost: missing',
    );
  });

  it('accepts only hold for unknown tools, saying why', () => {
    expect(messageOf(() => parsePolicy({ unknown: 'decline' }, 'p.yaml'))).toBe(
      'p.yaml: unknown: must be "hold": an unknown tool\'s answer cannot be guessed, so it waits for a person',
    );
  });

  it('refuses a value that is not a mapping', () => {
    expect(messageOf(() => parsePolicy(null, 'p.yaml'))).toBe('p.yaml: empty: expected a mapping of tool names to rules');
    expect(messageOf(() => parsePolicy(['hold'], 'p.yaml'))).toBe('p.yaml: must be a mapping, found a list');
    expect(messageOf(() => parsePolicy({ confirm_scope: null }, 'p.yaml'))).toBe('p.yaml: confirm_scope: must be a mapping, found null');
  });

  it('prefixes key paths for a policy inside another file', () => {
    expect(messageOf(() => parsePolicy({ x: 1 }, 'pipe.yaml', { prefix: ['policy'] }))).toBe('pipe.yaml: policy.x: unknown key');
  });
});

describe('loadPolicyFile', () => {
  it('reads YAML', async () => {
    const path = tempFile('p.yaml', 'confirm_scope:\n  approve_max_cost: 10  # approve small plans\nunknown: hold\n');
    expect(await loadPolicyFile(path)).toEqual({ confirm_scope: { approve_max_cost: 10, otherwise: 'hold' }, unknown: 'hold' });
  });

  it('reads JSON', async () => {
    const path = tempFile('p.json', '{"request_quality_image": "decline", "ask_choice": {"prefer": ["a"]}}');
    expect(await loadPolicyFile(path)).toEqual({
      request_quality_image: 'decline',
      ask_choice: { prefer: ['a'], otherwise: 'hold' },
    });
  });

  it('names the file and line of schema problems', async () => {
    const path = tempFile('p.yaml', 'confirm_scope:\n  approve_max_cost: ten\n  batch_budget: 5\n  otherwize: decline\n');
    expect(await rejection(loadPolicyFile(path))).toBe(
      [
        `${path}:2: confirm_scope.approve_max_cost: must be a number, found a string`,
        `${path}:4: confirm_scope.otherwize: unknown key`,
      ].join('\n'),
    );
  });

  it('names the file and line of YAML syntax errors', async () => {
    const path = tempFile('p.yaml', 'confirm_scope:\n  approve_max_cost: 1\nconfirm_scope:\n  approve_max_cost: 2\n');
    expect(await rejection(loadPolicyFile(path))).toBe(`${path}:3: Map keys must be unique`);
  });

  it('names the file and line of JSON syntax errors', async () => {
    const path = tempFile('p.json', '{\n  "unknown": "hold",\n  "ask_choice": {"prefer": ["a"}\n}\n');
    expect(await rejection(loadPolicyFile(path))).toMatch(new RegExp(`^${path}:3: `));
  });

  it('refuses an empty file and a missing one', async () => {
    const empty = tempFile('p.yaml', '# nothing here\n');
    expect(await rejection(loadPolicyFile(empty))).toBe(`${empty}: empty: expected a mapping of tool names to rules`);
    expect(await rejection(loadPolicyFile('/nonexistent/p.yaml'))).toBe('/nonexistent/p.yaml: cannot read: no such file');
  });
});
