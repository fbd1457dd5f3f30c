import { describe, expect, it } from 'vitest';
import { commandHint, hintFlags } from '../../src/text/command-hint.js';
import { shSplit } from '../support/sh-split.js';

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
