import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startPgServer } from './pg-server.js';

/** The throwaway PostgreSQL the store tests run against. */
describe('startPgServer', () => {
  it('starts a server that accepts connections, creates a database, and stops (its directory gone)', async () => {
    const t0 = Date.now();
    const pg = await startPgServer();
    const startedMs = Date.now() - t0;
    let stopped = false;
    try {
      expect(pg.url).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres$/);
      expect((await pg.psql(['-c', 'select 1'])).trim()).toBe('1');
      const url = await pg.createDatabase('resq_probe');
      expect(url).toBe(pg.url.replace(/\/postgres$/, '/resq_probe'));
      expect((await pg.psql(['-d', 'resq_probe', '-c', 'select current_database()'])).trim()).toBe('resq_probe');
      // Visible in the test log: how long a server takes to start here.
      console.log(`PostgreSQL started in ${startedMs} ms on port ${pg.port}`);
      const dir = pg.dataDir;
      await pg.stop();
      stopped = true;
      expect(existsSync(dir)).toBe(false);
      await expect(pg.psql(['-c', 'select 1'])).rejects.toThrow();
    } finally {
      if (!stopped) await pg.stop();
    }
  });
});
