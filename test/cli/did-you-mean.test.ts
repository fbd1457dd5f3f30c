import { describe, expect, it } from 'vitest';
import { closest, editDistance, usageMessage, type UsageContext } from '../../src/cli/did-you-mean.js';

const usage = (options: string[], commands: string[] = []): UsageContext => ({
  getDescriptions: () => Object.fromEntries(options.map((o) => [o, 'x'])),
  getCommands: () => commands.map((c): [string] => [c]),
});

describe('did you mean', () => {
  it('measures edits, a swap of neighbours as one', () => {
    expect(editDistance('concurency', 'concurrency')).toBe(1);
    expect(editDistance('stauts', 'status')).toBe(1);
    expect(editDistance('abc', 'abc')).toBe(0);
  });

  it('guesses only what is close', () => {
    expect(closest('concurency', ['db', 'concurrency', 'limit'])).toBe('concurrency');
    expect(closest('zzzzzz', ['db', 'concurrency'])).toBeNull();
    expect(closest('foo', ['show'])).toBeNull();
  });

  it('names each unknown option with its nearest known one', () => {
    const u = usage(['db', 'json', 'concurrency', 'limit']);
    expect(usageMessage('Unknown arguments: concurency, zzzzzzzz', u, ['run', 'q.csv', '--concurency', '3', '--zzzzzzzz'], ['run'])).toBe(
      'unknown option --concurency: did you mean --concurrency?; unknown option --zzzzzzzz',
    );
    expect(usageMessage('Unknown argument: version', u, ['run', 'q.csv', '--version'], ['run'])).toMatch(/--version: it goes alone/);
  });

  it('tells a stray word from an option, and an unknown command from a stray word', () => {
    expect(usageMessage('Unknown argument: b', usage(['db']), ['status', 'a', 'b'], ['status'])).toBe('unexpected argument "b"');
    expect(usageMessage('Unknown argument: foo', usage(['db'], ['status [batch]', 'pull [batch]']), ['files', 'foo'], ['files'])).toBe('unknown command "foo" (one of status, pull)');
  });

  it("rewrites yargs' command suggestion with the whole command", () => {
    expect(usageMessage('Did you mean pull?', usage([]), ['--db', 'x.db', 'files', 'pul'], ['files', 'status'])).toBe('unknown command "pul"; did you mean: resq files pull');
    expect(usageMessage('Did you mean show?', usage([]), ['foo'], ['show'])).toBe('unknown command "foo"; the commands: resq --help');
    expect(usageMessage('Not enough non-option arguments', usage([]), [], [])).toBe('Not enough non-option arguments');
  });
});
