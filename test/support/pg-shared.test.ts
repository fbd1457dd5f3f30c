import { describe, expect, inject, it } from 'vitest';
import { pgAvailable } from './pg-server.js';
import { sharedPgServer } from './pg-shared.js';

/** The run's one PostgreSQL server, started by the global setup and shared by the test files. */
describe.skipIf(!pgAvailable())('sharedPgServer', () => {
  it('hands every caller the server the run started (no server of its own), on which each file creates its databases', async () => {
    const port = inject('resqPgPort');
    expect(port, 'the global setup provides the shared server\'s port').toBeGreaterThan(0);
    const [a, b] = await Promise.all([sharedPgServer(), sharedPgServer()]);
    expect([a.port, b.port]).toEqual([port, port]);
    const url = await a.createDatabase('shared_probe');
    expect(url).toBe(`postgres://postgres@127.0.0.1:${port}/shared_probe`);
    expect((await b.psql(['-d', 'shared_probe', '-c', 'select current_database()'])).trim()).toBe('shared_probe');
    // Ending one file's use leaves the server up for the others.
    await a.stop();
    expect((await b.psql(['-c', 'select 1'])).trim()).toBe('1');
  });
});
