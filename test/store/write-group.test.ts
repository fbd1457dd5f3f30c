import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { WriteGroup } from '../../src/store/sqlite/write-group.js';
import { tempDir } from '../support/cli.js';

/** Group commit on a real SQLite file, watched from a second connection. */

function open(path: string): Database.Database {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 0');
  return db;
}

/**
 * The group's sleep between busy retries, held by the test: `slept()` resolves when the group
 * next sleeps (it found the file busy); `wake()` ends every sleep, now and after.
 */
function heldSleep(): { sleep: (ms: number) => Promise<void>; slept: () => Promise<void>; wake: () => void } {
  const sleeping: (() => void)[] = [];
  let onSleep: (() => void) | null = null;
  let awake = false;
  return {
    sleep: () =>
      new Promise<void>((resolve) => {
        if (awake) return resolve();
        sleeping.push(resolve);
        onSleep?.();
      }),
    slept: () => (sleeping.length ? Promise.resolve() : new Promise<void>((r) => (onSleep = r))),
    wake: () => {
      awake = true;
      for (const r of sleeping.splice(0)) r();
    },
  };
}

function setup(held: { sleep: (ms: number) => Promise<void> } = { sleep: () => Promise.resolve() }): { db: Database.Database; other: Database.Database; group: WriteGroup; commits: () => number; savepoints: () => number } {
  const path = join(tempDir('resq-group-'), 'g.db');
  const db = open(path);
  db.exec('CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER NOT NULL)');
  const other = open(path);
  let commits = 0;
  let savepoints = 0;
  const tx = db.transaction((fn: () => void) => fn());
  const sp = db.transaction((fn: () => unknown) => (savepoints++, fn()));
  const group = new WriteGroup(
    {
      transaction: (fn) => {
        tx.immediate(fn);
        commits++;
      },
      savepoint: sp as <T>(fn: () => T) => T,
    },
    held.sleep,
  );
  return { db, other, group, commits: () => commits, savepoints: () => savepoints };
}

const count = (db: Database.Database): number => (db.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n;

describe('WriteGroup', () => {
  it('puts the writes of one turn in one transaction, and settles each after COMMIT', async () => {
    const { db, other, group, commits, savepoints } = setup();
    const insert = db.prepare('INSERT INTO t VALUES (?, ?)');
    const seen: number[] = [];
    const writes = Array.from({ length: 50 }, (_, i) =>
      group.write(() => insert.run(`k${i}`, i).changes).then((changes) => {
        // Another connection already sees every row of the group: it was committed first.
        seen.push(count(other));
        return changes;
      }),
    );
    expect(group.pending).toBe(50);
    expect(await Promise.all(writes)).toEqual(Array(50).fill(1));
    expect(commits()).toBe(1);
    // Nothing threw: no savepoint was needed.
    expect(savepoints()).toBe(0);
    expect(seen.every((n) => n === 50)).toBe(true);
  });

  it('rolls back and rejects only the write that threw; the others commit', async () => {
    const { db, other, group, savepoints } = setup();
    const insert = db.prepare('INSERT INTO t VALUES (?, ?)');
    const ok1 = group.write(() => insert.run('a', 1));
    const bad = group.write(() => {
      insert.run('b', 2);
      throw new Error('lease lost');
    });
    const dup = group.write(() => insert.run('a', 3));
    const ok2 = group.write(() => insert.run('c', 4));
    await expect(ok1).resolves.toBeDefined();
    await expect(bad).rejects.toThrow('lease lost');
    await expect(dup).rejects.toThrow(/UNIQUE/);
    await expect(ok2).resolves.toBeDefined();
    // The plain attempt was rolled back at the first throw; the second ran each write in a savepoint.
    expect(savepoints()).toBe(4);
    expect(other.prepare('SELECT k, v FROM t ORDER BY k').all()).toEqual([
      { k: 'a', v: 1 },
      { k: 'c', v: 4 },
    ]);
  });

  it('waits out a database another connection holds, then commits the whole group once', async () => {
    const held = heldSleep();
    const { db, other, group, commits } = setup(held);
    other.exec('BEGIN IMMEDIATE');
    const insert = db.prepare('INSERT INTO t VALUES (?, ?)');
    let runs = 0;
    const writes = [group.write(() => (runs++, insert.run('x', 1))), group.write(() => insert.run('y', 2))];
    // The group found the file busy and sleeps before trying again.
    await held.slept();
    expect(count(db)).toBe(0);
    other.exec('COMMIT');
    held.wake();
    await Promise.all(writes);
    expect(count(other)).toBe(2);
    expect(commits()).toBe(1);
    expect(runs).toBe(1);
  });

  it('keeps writes asked for while a group commits for the next group, in order', async () => {
    const { db, group, commits } = setup();
    const insert = db.prepare('INSERT INTO t VALUES (?, ?)');
    const first = group.write(() => insert.run('a', 1));
    const second = first.then(() => group.write(() => db.prepare('UPDATE t SET v = v + 1 WHERE k = ?').run('a')));
    await second;
    expect(commits()).toBe(2);
    expect((db.prepare('SELECT v FROM t WHERE k = ?').get('a') as { v: number }).v).toBe(2);
  });

  it('drain runs the waiting writes at once (before the database closes)', async () => {
    const { db, group } = setup();
    const w = group.write(() => db.prepare('INSERT INTO t VALUES (?, ?)').run('z', 1));
    await group.drain();
    expect(group.pending).toBe(0);
    await w;
    expect(count(db)).toBe(1);
  });

  it('drain also waits for a group that is waiting out a busy database', async () => {
    const held = heldSleep();
    const { db, other, group } = setup(held);
    other.exec('BEGIN IMMEDIATE');
    const w = group.write(() => db.prepare('INSERT INTO t VALUES (?, ?)').run('late', 1));
    // Its group has been taken from the queue and is sleeping between busy retries.
    await held.slept();
    expect(group.pending).toBe(0);
    let drained = false;
    const draining = group.drain().then(() => (drained = true));
    // Every turn the drain could take passes while the group sleeps: it does not settle.
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(drained).toBe(false);
    other.exec('COMMIT');
    held.wake();
    await draining;
    await w;
    expect(count(other)).toBe(1);
  });

  it('a database that cannot grow (SQLITE_FULL) fails the whole group with that error: nothing of it kept, nothing before it touched', async () => {
    const { db, other, group } = setup();
    const insert = db.prepare('INSERT INTO t VALUES (?, ?)');
    await group.write(() => insert.run('before', 0));
    // The file may not grow past its pages now (as on a full disk): a big row cannot be stored.
    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
    const big = 'x'.repeat(64 * 1024);
    const small = group.write(() => insert.run('small', 1));
    const large = group.write(() => insert.run('large', big));
    const results = await Promise.allSettled([small, large]);
    for (const r of results) {
      expect(r.status).toBe('rejected');
      expect((r as PromiseRejectedResult).reason).toMatchObject({ code: 'SQLITE_FULL' });
    }
    expect(db.inTransaction).toBe(false);
    expect((other.prepare('SELECT k FROM t ORDER BY k').all() as { k: string }[]).map((r) => r.k)).toEqual(['before']);
    // Once there is room again the next group commits.
    db.pragma('max_page_count = 1000000');
    await group.write(() => insert.run('after', 2));
    expect(count(other)).toBe(2);
  });
});
