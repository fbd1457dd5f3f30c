import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerWaiting } from '../support/answer-waiting.js';
import { startSim, type Sim } from '../../src/sim/index.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import type { BatchRecord } from '../../src/store/index.js';
import { startWebServer, type WebServer } from '../../src/web/server.js';
import { tempDir } from '../support/cli.js';
import { sharedPgServer, type SharedPg } from '../support/pg-shared.js';
import { runCsvBatch } from '../support/two-batches.js';
import { bearer } from './support/web-fixture.js';

/** No periodic tick comes within the test: an event that arrives can only have been asked for by NOTIFY. */
const AN_HOUR = 3_600_000;

type Overview = { counts: { held: number }; heldItems: { id: string }[] };

/** Opens the batch's event stream; `next()` reads the next overview. */
async function overviews(server: WebServer, batch: string) {
  const ac = new AbortController();
  const r = await fetch(`${server.origin}/api/batches/${batch}/events`, { headers: bearer(server), signal: ac.signal });
  const reader = r.body!.getReader();
  const dec = new TextDecoder();
  let buf = '';
  return {
    async next(): Promise<Overview> {
      for (;;) {
        const m = /event: overview\ndata: (.*)\n\n/.exec(buf);
        if (m) {
          buf = buf.slice(m.index + m[0].length);
          return JSON.parse(m[1]!) as Overview;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('stream ended');
        buf += dec.decode(value, { stream: true });
      }
    },
    close: () => ac.abort(),
  };
}

describe('live overviews on PostgreSQL', () => {
  let pg: SharedPg;
  let sim: Sim;
  let url: string;
  let served: PostgresStore;
  let batch: BatchRecord;
  let server: WebServer;
  beforeAll(async () => {
    [pg, sim] = await Promise.all([sharedPgServer(), startSim({ defaultDurationMs: 20 })]);
    url = await pg.createDatabase('live');
    served = await PostgresStore.open(url);
    batch = await runCsvBatch(sim, served, tempDir(), 'pglive', 'id,question\nplan,Costly plan @confirm=50\nimage,Pretty figure @image\nplain,Plain\n', null);
    server = await startWebServer({ store: served, port: 0, tickMs: AN_HOUR });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await served?.close();
    await sim?.close();
    await pg?.stop();
  });

  it("an answer recorded by another machine's connection reaches an open stream at once (NOTIFY), one LISTEN connection for every page", { timeout: 60_000 }, async () => {
    const page = await overviews(server, 'pglive');
    const second = await overviews(server, 'pglive');
    const first = await page.next();
    expect(first.heldItems.map((h) => h.id).sort()).toEqual(['image', 'plan']);
    expect(await second.next()).toEqual(first);
    await served.listening();
    // Two pages, one poller: the server holds one listening connection, not one per page.
    const listening = await pg.psql(['-d', 'live', '-c', "SELECT count(*) FROM pg_stat_activity WHERE datname = 'live' AND query LIKE 'LISTEN%'"]);
    expect(Number(listening.trim())).toBe(1);

    const elsewhere = await PostgresStore.open(url); // another machine: its own connections
    try {
      await answerWaiting(elsewhere, batch, 'image', { kind: 'decline' }, { person: 'Eve' });
    } finally {
      await elsewhere.close();
    }
    const [a, b] = await Promise.all([page.next(), second.next()]);
    expect(a.counts.held).toBe(first.counts.held - 1);
    expect(a.heldItems.map((h) => h.id)).toEqual(['plan']);
    expect(b).toEqual(a);
    page.close();
    second.close();
  });
});
