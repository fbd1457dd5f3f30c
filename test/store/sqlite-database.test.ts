import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase, pendingMigrations } from '../../src/store/sqlite/database.js';
import { migrate, migrations } from '../../src/store/sqlite/migrations.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { tempDir } from '../support/cli.js';

/** The migrations a file from before 019 is upgraded by, as an open names them. */
const SINCE_019 = migrations.slice(migrations.findIndex((m) => m.name.startsWith('019_'))).map((m) => m.name).join(', ');

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
    expect(said).toEqual([`reading ${path}, written by an older resq, through a copy upgraded in memory (${SINCE_019}); the file is left as it is`]);
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
    expect(said).toEqual([`upgrading the database ${path} to this resq's schema (${SINCE_019}): a large one takes a while`]);
    // Opened again (current), or new: nothing to say.
    openDatabase(path, { onWait: (m) => said.push(m) }).close();
    openDatabase(join(tempDir(), 'new.db'), { onWait: (m) => said.push(m) }).close();
    expect(said).toHaveLength(1);
    const again = new Database(path, { readonly: true });
    expect(pendingMigrations(again)).toEqual([]);
    again.close();
  });
});
