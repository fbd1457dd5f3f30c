import { describe, expect, it } from 'vitest';
import { DbWait } from '../../../src/store/db-wait.js';
import { busyReason, retryBusy } from '../../../src/store/sqlite/busy.js';

const coded = (code: string) => Object.assign(new Error(code), { code });

describe('busyReason', () => {
  it('waits out a busy file and a file SQLite could not open while running (EMFILE), nothing else', () => {
    expect(busyReason(coded('SQLITE_BUSY'))).toBe('SQLITE_BUSY');
    expect(busyReason(coded('SQLITE_CANTOPEN'))).toBe('SQLITE_CANTOPEN');
    expect(busyReason(coded('SQLITE_CORRUPT'))).toBeNull();
  });

  it('a statement that failed SQLITE_CANTOPEN is tried again and succeeds, the wait said once', async () => {
    const said: string[] = [];
    let tries = 0;
    const out = await retryBusy(() => {
      if (++tries < 3) throw coded('SQLITE_CANTOPEN');
      return 'ok';
    }, new DbWait('r.db', { onWait: (m) => said.push(m) }));
    expect(out).toBe('ok');
    expect(tries).toBe(3);
    expect(said).toHaveLength(1);
  });
});
