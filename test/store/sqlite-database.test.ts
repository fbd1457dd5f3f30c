import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contextOf, finishBatches, ItemKeys, itemKey, noteEnded, openDatabase, pendingMigrations, takingBackNotes } from '../../src/store/sqlite/database.js';
import { systemClock } from '../../src/clock.js';
import { migrate, migrations } from '../../src/store/sqlite/migrations.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { tempDir } from '../support/cli.js';

/** The migrations a file from before 019 is missing, as said. */
const from019 = migrations.slice(migrations.findIndex((m) => m.name === '019_lean_items')).map((m) => m.name).join(', ');

const sha = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

/** A file as resq wrote it before 019 (the lean store): in WAL mode, its last commits still in the WAL. */
function fileBefore019(): { path: string; writer: Database.Database } {
  const path = join(tempDir(), 'before-019.db');
  const writer = new Database(path);
  writer.pragma('journal_mode = WAL');
  migrate(writer, migrations.slice(0, migrations.findIndex((m) => m.name.startsWith('019_'))));
  writer.prepare("INSERT INTO batches (id, name, source_path, source_sha256, total_items, created_at, updated_at) VALUES ('b1', 'old', '/q.csv', 'abc', 3, 'now', 'now')").run();
  const item = writer.prepare(
    'INSERT INTO items (batch_id, id, seq, line, question, state, owner, lease_until, fence, run_id, step, text, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  item.run('b1', 'a', 0, 2, 'first?', 'completed', null, null, 0, 'run_a', 0, 'an answer', '2026-01-01T00:00:00.000Z');
  item.run('b1', 'b', 1, 3, 'second?', 'running', 'worker-1', 9_999_999_999_999, 4, 'run_b', 0, 'half an ans', '2026-01-01T00:00:01.000Z');
  item.run('b1', 'c', 2, 4, 'third?', 'queued', null, null, 0, null, 0, null, '2026-01-01T00:00:02.000Z');
  return { path, writer };
}

describe('openDatabase', () => {
  it('read-only, reads a file from before 019 through a migrated copy in memory and leaves the file as it was', async () => {
    const { path, writer } = fileBefore019();
    // The writer stays open: its commits are in the WAL, not yet in the main file.
    const before = { main: sha(path), wal: sha(`${path}-wal`) };
    const said: string[] = [];
    const store = SqliteStore.open(path, { readonly: true, onWait: (m) => said.push(m) });
    expect(said).toEqual([`reading ${path}, written by an older resq, through a copy upgraded in memory (${from019}); the file is left as it is`]);
    expect(await store.itemCounts('b1')).toMatchObject({ completed: 1, running: 1, queued: 1 });
    expect(await store.getItem('b1', 'b')).toMatchObject({ state: 'running', owner: 'worker-1', fence: 4, runId: 'run_b', text: 'half an ans' });
    expect((await store.listItems('b1')).map((i) => [i.id, i.state])).toEqual([['a', 'completed'], ['b', 'running'], ['c', 'queued']]);
    // Closed to writes like any read-only open.
    expect(() => store.db.prepare("UPDATE items SET question = 'x'").run()).toThrow(/readonly|read-only|query_only|attempt to write/i);
    await store.close();
    expect({ main: sha(path), wal: sha(`${path}-wal`) }).toEqual(before);
    expect(pendingMigrations(writer)).toContain('019_lean_items');
    writer.close();
  });

  it('read-only, a file already migrated is read as it is (nothing pending, no copy)', () => {
    const path = join(tempDir(), 'current.db');
    openDatabase(path).close();
    const db = openDatabase(path, { readonly: true });
    expect(pendingMigrations(db)).toEqual([]);
    expect(db.name).toBe(path);
    db.close();
  });

  it('read-write, migrates the file itself, and says so first for a file an older resq wrote (not for a new one)', () => {
    const { path, writer } = fileBefore019();
    writer.close();
    const said: string[] = [];
    const db = openDatabase(path, { onWait: (m) => said.push(m) });
    expect(pendingMigrations(db)).toEqual([]);
    db.close();
    expect(said).toEqual([`upgrading the database ${path} to this resq's schema (${from019}): a large one takes a while`]);
    // Opened again (current), or new: nothing to say.
    openDatabase(path, { onWait: (m) => said.push(m) }).close();
    openDatabase(join(tempDir(), 'new.db'), { onWait: (m) => said.push(m) }).close();
    expect(said).toHaveLength(1);
    const again = new Database(path, { readonly: true });
    expect(pendingMigrations(again)).toEqual([]);
    again.close();
  });
});

/** A migrated database with one batch (num 1, notify set when asked) of `n` queued items, and its context. */
function batchOf(n: number, notify: boolean) {
  const db = openDatabase(join(tempDir(), 'cx.db'));
  const settings = JSON.stringify(notify ? { notify: { urls: ['http://127.0.0.1:9/hook'] } } : {});
  db.prepare("INSERT INTO batches (id, num, name, source_path, source_sha256, settings, total_items, created_at, updated_at) VALUES ('b', 1, 'b', '/q.csv', 'x', ?, ?, 'now', 'now')").run(settings, n);
  const add = db.prepare("INSERT INTO items (batch_num, id, seq, line, question, updated_at) VALUES (1, ?, ?, ?, 'q?', 'now')");
  for (let i = 0; i < n; i++) add.run(`i${i}`, i, i + 2);
  return { db, cx: contextOf(db, systemClock) };
}

const finishedEvents = (db: Database.Database): string[] =>
  db.prepare("SELECT key FROM outbox WHERE type = 'batch.finished' ORDER BY id").pluck().all() as string[];

describe("the connection's item keys", () => {
  it("itemKey reads an item's key from its row, or gives the kept one; null for an item or a batch the database lacks", () => {
    const { db, cx } = batchOf(3, false);
    const key = db.prepare("SELECT key FROM items WHERE id = 'i1'").pluck().get() as number;
    expect(itemKey(cx, 'b', 'i1')).toBe(key);
    expect(itemKey(cx, 'b', 'nope')).toBeNull();
    expect(itemKey(cx, 'other', 'i1')).toBeNull();
    // A kept key is given without a read: shown by keeping one the row does not have.
    cx.keys.keep('b', 'i1', 999);
    expect(itemKey(cx, 'b', 'i1')).toBe(999);
    cx.keys.drop('b', 'i1');
    expect(itemKey(cx, 'b', 'i1')).toBe(key);
    db.close();
  });

  it('ItemKeys holds at most MOST keys: past it all are let go (and read again as needed), so leftovers never grow without bound', () => {
    const keys = new ItemKeys();
    for (let i = 0; i < ItemKeys.MOST; i++) keys.keep('b', `i${i}`, i);
    expect(keys.size).toBe(ItemKeys.MOST);
    keys.keep('b', 'i0', 0);
    expect(keys.size).toBe(ItemKeys.MOST);
    keys.keep('c', 'x', 7);
    expect(keys.size).toBe(1);
    expect(keys.get('b', 'i5')).toBeUndefined();
    expect(keys.get('c', 'x')).toBe(7);
    keys.drop('c', 'x');
    keys.drop('c', 'x');
    expect(keys.size).toBe(0);
  });
});

describe('batch.finished, looked at once per transaction', () => {
  it('is written when a batch an item of which ended has nothing left queued, in flight or held, once, keyed by how many came before', () => {
    const { db, cx } = batchOf(2, true);
    const end = db.prepare("UPDATE items SET state = 'completed' WHERE id = ?");
    db.transaction(() => {
      end.run('i0');
      noteEnded(cx, 1);
      finishBatches(cx);
    })();
    expect(finishedEvents(db)).toEqual([]);
    db.transaction(() => {
      end.run('i1');
      noteEnded(cx, 1);
      noteEnded(cx, 1);
      finishBatches(cx);
    })();
    expect(finishedEvents(db)).toEqual(['finished:0']);
    // The notes were used up: another look with none notes nothing.
    finishBatches(cx);
    expect(finishedEvents(db)).toEqual(['finished:0']);
    // Ended again (after a retry): another.
    db.prepare("UPDATE items SET state = 'queued' WHERE id = 'i1'").run();
    end.run('i1');
    noteEnded(cx, 1);
    finishBatches(cx);
    expect(finishedEvents(db)).toEqual(['finished:0', 'finished:1']);
    db.close();
  });

  it('is not written for a batch with nowhere to notify, nor while an item is in flight (its row queued, its flight counted)', () => {
    const quiet = batchOf(1, false);
    quiet.db.prepare("UPDATE items SET state = 'completed'").run();
    noteEnded(quiet.cx, 1);
    finishBatches(quiet.cx);
    expect(finishedEvents(quiet.db)).toEqual([]);
    quiet.db.close();
    const { db, cx } = batchOf(2, true);
    db.prepare("UPDATE items SET state = 'completed' WHERE id = 'i0'").run();
    db.prepare("UPDATE items SET state = 'completed' WHERE id = 'i1'").run();
    db.prepare("INSERT INTO flights (item_key, batch_num, state, step, fence, updated_at) SELECT key, 1, 'running', 0, 1, 'now' FROM items WHERE id = 'i1'").run();
    noteEnded(cx, 1);
    finishBatches(cx);
    expect(finishedEvents(db)).toEqual([]);
    db.close();
  });

  it('a write that throws takes back the ends it noted (rolled back alone, it ended nothing)', () => {
    const { cx } = batchOf(1, true);
    noteEnded(cx, 1);
    expect(() => takingBackNotes(cx, () => {
      noteEnded(cx, 2);
      throw new Error('lease lost');
    })).toThrow('lease lost');
    expect(cx.ended).toEqual([1]);
    expect(takingBackNotes(cx, () => (noteEnded(cx, 3), 'ok'))).toBe('ok');
    expect(cx.ended).toEqual([1, 3]);
    cx.db.close();
  });
});
