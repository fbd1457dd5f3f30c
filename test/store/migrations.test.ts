import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, migrations } from '../../src/store/migrations.js';

function tables(db: Database.Database): string[] {
  return (db.prepare("SELECT name FROM sqlite_master WHERE type IN ('table','view') ORDER BY name").pluck().all() as string[]).filter(
    (n) => !n.startsWith('sqlite_'),
  );
}

describe('migrations', () => {
  it('builds the whole schema from a blank database', () => {
    const db = new Database(':memory:');
    expect(migrate(db)).toEqual(migrations.map((m) => m.name));
    expect(tables(db)).toEqual(
      expect.arrayContaining(['batches', 'items', 'runs', 'decisions', 'files', 'threads', 'item_summary', 'batch_counts', 'decision_log', 'file_list']),
    );
  });

  it('upgrades a database made by the previous schema and keeps its rows', () => {
    const db = new Database(':memory:');
    migrate(db, migrations.slice(0, -1));
    db.prepare(
      "INSERT INTO batches (id, name, source_path, source_sha256, created_at, updated_at) VALUES ('b1', 'old', '/q.csv', 'abc', 'now', 'now')",
    ).run();
    const applied = migrate(db);
    expect(applied).toEqual([migrations[migrations.length - 1]!.name]);
    expect(db.prepare('SELECT name FROM batches').pluck().all()).toEqual(['old']);
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
