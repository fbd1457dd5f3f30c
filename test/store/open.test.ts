import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/clock.js';
import { openStore } from '../../src/store/open.js';
import { tempDir } from '../support/cli.js';
import { startPgServer, type PgServer } from '../support/pg-server.js';

/** A clock whose time moves only by what is slept; each sleep yields a little real time so a server can start meanwhile. */
function steppingClock(realMs: number): Clock & { slept: number } {
  const c = {
    slept: 0,
    now: () => c.slept,
    sleep: async (ms: number) => {
      c.slept += ms;
      await new Promise((r) => setTimeout(r, realMs));
    },
  };
  return c;
}

describe('openStore', () => {
  let server: PgServer;
  beforeAll(async () => {
    server = await startPgServer();
  }, 120_000);
  afterAll(async () => server?.stop());

  it('opens a SQLite file by path and a PostgreSQL database by URL', async () => {
    const lite = await openStore(join(tempDir(), 'r.db'));
    expect(await lite.listBatches()).toEqual([]);
    await lite.close();
    const pgStore = await openStore(await server.createDatabase('open_plain'));
    expect(pgStore.location).toMatch(/^postgres:\/\//);
    await pgStore.close();
  });

  it('waits for a PostgreSQL server that is down or starting up, says so once with the bound, and opens once it is up', { timeout: 120_000 }, async () => {
    const url = await server.createDatabase('open_wait');
    await server.halt();
    const said: string[] = [];
    let up: Promise<void> | null = null;
    const clock = steppingClock(50);
    const store = await openStore(url, {
      waitMs: 600_000,
      clock,
      onWait: (m) => {
        said.push(m);
        // The server comes back while the worker waits.
        up = server.resume();
      },
    });
    await up;
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/^the database postgres:\/\/postgres@127\.0\.0\.1:\d+\/open_wait is not accepting connections \((ECONNREFUSED|57P03)[^)]*\): waiting up to 600 s$/);
    expect(clock.slept).toBeGreaterThan(0);
    expect(await store.listBatches()).toEqual([]);
    await store.close();
  });

  it('gives up past the bound, naming it; other failures are not waited on', { timeout: 60_000 }, async () => {
    const url = await server.createDatabase('open_bound');
    await server.halt();
    try {
      const clock = steppingClock(0);
      const said: string[] = [];
      await expect(openStore(url, { waitMs: 3_000, clock, onWait: (m) => said.push(m) })).rejects.toThrow(
        /^cannot use the database postgres:\/\/postgres@127\.0\.0\.1:\d+\/open_bound: .* \(waited 3 s for the server to accept connections; is it running\?\)$/,
      );
      expect(said).toHaveLength(1);
      expect(clock.slept).toBe(3_000);
    } finally {
      await server.resume();
    }
    // A database that does not exist is no server starting up: refused at once.
    const clock = steppingClock(0);
    await expect(openStore(url.replace('open_bound', 'no_such_db'), { clock })).rejects.toThrow(/no_such_db/);
    expect(clock.slept).toBe(0);
  });
});
