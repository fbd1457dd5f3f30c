import { describe, expect, it } from 'vitest';
import { diskFullMessage } from '../../src/cli/disk-full.js';
import { userMessage } from '../../src/cli/error-message.js';

const sqliteFull = Object.assign(new Error('database or disk is full'), { name: 'SqliteError', code: 'SQLITE_FULL' });
// What node-postgres gives for SQLSTATE 53100 (disk_full).
const pgFull = Object.assign(new Error('could not extend file "base/16384/16402": No space left on device'), { severity: 'ERROR', code: '53100' });

describe('diskFullMessage', () => {
  it('names the database, the full disk, that nothing was lost, and the resume command', () => {
    expect(diskFullMessage(sqliteFull, { db: 'runs/r.db', resume: 'resq resume june --db runs/r.db' })).toBe(
      'the database runs/r.db is on a full disk (database or disk is full): nothing was lost, the items stay queued or in flight as stored; free some space, then: resq resume june --db runs/r.db',
    );
  });

  it('masks a PostgreSQL password and keeps the server\'s words on one line, controls escaped', () => {
    const odd = Object.assign(new Error('could not write\n\x1b[31mblock'), { code: '53100' });
    const text = diskFullMessage(odd, { db: 'postgres://me:s3cret@db:5432/resq' });
    expect(text).not.toContain('s3cret');
    expect(text).toContain('postgres://me:***@db:5432/resq');
    expect(text).toContain('(could not write \\x1b[31mblock)');
    expect(text).toMatch(/then run the same command again$/);
    expect(text).not.toMatch(/[\u0000-\u001f]/);
  });
});

describe('userMessage for a full disk', () => {
  it('is the full-disk line for SQLite and PostgreSQL alike, also as the cause of another error', () => {
    for (const e of [sqliteFull, pgFull, new Error('claim failed', { cause: pgFull })])
      expect(userMessage(e, { db: 'x.db' })).toMatch(/^the database x\.db is on a full disk \(.+\): nothing was lost/);
  });

  it('leaves other database errors as they are', () => {
    const locked = Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    expect(userMessage(locked, { db: 'x.db' })).toBe('database is locked');
  });
});
