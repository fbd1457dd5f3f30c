import { describe, expect, it } from 'vitest';
import { isDiskFull, isStoreFault } from '../../src/runner/store-fault.js';

const sqlite = (code: string) => Object.assign(new Error(code), { name: 'SqliteError', code });
const pg = (code: string) => Object.assign(new Error(code), { severity: 'ERROR', code });

describe('isStoreFault', () => {
  it('takes SQLite and PostgreSQL errors, not the service\'s or a bug', () => {
    expect([sqlite('SQLITE_FULL'), sqlite('SQLITE_IOERR'), pg('53100'), pg('57P01')].every(isStoreFault)).toBe(true);
    expect([new TypeError('x'), Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }), 'text'].some(isStoreFault)).toBe(false);
  });
});

describe('isDiskFull', () => {
  it('is SQLite\'s SQLITE_FULL and PostgreSQL\'s disk_full (53100), also as a cause', () => {
    expect(isDiskFull(sqlite('SQLITE_FULL'))).toBe(true);
    expect(isDiskFull(pg('53100'))).toBe(true);
    expect(isDiskFull(new Error('write failed', { cause: sqlite('SQLITE_FULL') }))).toBe(true);
  });

  it('is no other database error', () => {
    for (const e of [sqlite('SQLITE_BUSY'), sqlite('SQLITE_IOERR'), pg('53200'), pg('57P03'), null, undefined, 'SQLITE_FULL'])
      expect(isDiskFull(e), String(e)).toBe(false);
  });
});
