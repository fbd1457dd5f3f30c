import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { commandHint, hintFlags } from '../../src/text/command-hint.js';
import { shSplit } from '../support/sh-split.js';
import { wideEncodingReason } from '../../src/tables/encoding.js';
import { usageMessage } from '../../src/cli/did-you-mean.js';
import { descriptorLine } from '../../src/cli/progress.js';
import { refusalLine } from '../../src/cli/answer-refusal.js';
import { PauseMovedError } from '../../src/errors.js';
import { answerHint } from '../../src/cli/text/item-text.js';
import { diskFullMessage } from '../../src/cli/disk-full.js';

describe('commandHint', () => {
  it('quotes every word and adds --db for a database that is not the default one', () => {
    const hint = commandHint(['resq', 'show', 'two words;x', 'ITEM'], { db: '/tmp/my dir/x.db' });
    expect(hint).toBe("resq show 'two words;x' ITEM --db '/tmp/my dir/x.db'");
    expect(shSplit(hint)).toEqual(['resq', 'show', 'two words;x', 'ITEM', '--db', '/tmp/my dir/x.db']);
  });

  it('leaves --db out for the default database and for a postgres:// URL (it may hold a password)', () => {
    expect(commandHint(['resq', 'resume', 'june'], { db: 'resq.db' })).toBe('resq resume june');
    expect(commandHint(['resq', 'resume', 'june'], { db: 'postgres://u:secret@h/db' })).toBe('resq resume june');
    expect(commandHint(['resq', 'resume', 'june'])).toBe('resq resume june');
  });

  it('adds --sim when the command needs it, after --db', () => {
    expect(commandHint(['resq', 'files', 'pull'], { db: 'a.db', sim: true })).toBe('resq files pull --db a.db --sim');
    expect(hintFlags({ sim: true })).toEqual(['--sim']);
  });
});

describe('every hint resq prints ends with a command a POSIX shell takes as printed', () => {
  const usage = { getDescriptions: () => ({}), getCommands: () => [] };
  const moved = new PauseMovedError('it\u001bem 1', null, { runId: 'r2', tool: 'confirm_scope', cost: 5 });
  // [where it is printed, the line, what comes before the command, the words the shell must see]
  const hints: [string, string, string, string[]][] = [
    ['a UTF-16 question set', wideEncodingReason('UTF-16LE', "my set's.csv"), 'convert it with ', ['iconv', '-f', 'UTF-16LE', '-t', 'UTF-8', "my set's.csv"]],
    ['a mistyped sub-command', usageMessage('Did you mean pull?', usage, ['files', 'pul'], ['files']), 'did you mean: ', ['resq', 'files', 'pull']],
    ['too few open files', descriptorLine({ concurrency: 400, needed: 1208, limit: 256, runs: 60 }), 'raise it before resq: ', ['ulimit', '-n', '1208']],
    ['a held pause (resq show, the run summary)', answerHint('my batch', "it's 2", 'confirm_scope', { db: 'x y.db' }, 'r-1', { cost: 3 }), 'answer (or --decline): ', ['resq', 'answer', 'my batch', "it's 2", '--run', 'r-1', '--approve', '--db', 'x y.db']],
    ['a held choice: its first option, not ID', answerHint('b', 'i', 'ask_choice', {}, 'r-2', { options: [{ id: 'opt a' }, { id: 'b' }] }), '--decline): ', ['resq', 'answer', 'b', 'i', '--run', 'r-2', '--choose', 'opt a']],
    ['a full disk', diskFullMessage(new Error('SQLITE_FULL'), { db: 'r.db', resume: commandHint(['resq', 'resume', 'june'], { db: 'r.db' }) }), 'free some space, then: ', ['resq', 'resume', 'june', '--db', 'r.db']],
    ['a pause that moved on', refusalLine(moved, 'june; rm -rf x', '/tmp/my dir/r.db')!.trimEnd(), 'nothing recorded; ', ['resq', 'show', 'june; rm -rf x', 'it\u001bem 1', '--db', '/tmp/my dir/r.db']],
  ];
  it.each(hints)('%s', (_where, line, before, words) => {
    expect(line).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    const at = line.indexOf(before);
    expect(at, line).toBeGreaterThanOrEqual(0);
    // Everything after the lead-in is the command: nothing glued to its end (no `?`, `.`, backtick).
    const [command, redirect] = line.slice(at + before.length).split(' > ');
    expect(shSplit(command!)).toEqual(words);
    if (redirect !== undefined) expect(shSplit(redirect)).toEqual(["my set's.utf8.csv"]);
    expect(spawnSync('/bin/sh', ['-n', '-c', line.slice(at + before.length)]).status).toBe(0);
  });
});
