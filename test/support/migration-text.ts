import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import type { Migration } from '../../src/store/sqlite/migrations.js';

// The text of SQLite migrations and the schema they build, for test/store/migration-text.test.ts.

/** The SHA-256 of `text` (UTF-8), in hex. */
export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * A database that writes down every statement run through it (the text of `exec` and `prepare`,
 * and the values bound when a prepared statement runs) in `log`.
 */
function recording(db: Database.Database, log: string[]): Database.Database {
  const statement = (s: Database.Statement): Database.Statement => {
    const wrapped: Database.Statement = new Proxy(s, {
      get(target, key) {
        const value = Reflect.get(target, key) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (['run', 'get', 'all', 'iterate'].includes(String(key)) && args.length > 0) log.push(`-- bound ${JSON.stringify(args)}`);
          const out = (value as (...a: unknown[]) => unknown).apply(target, args);
          return out === target ? wrapped : out;
        };
      },
    });
    return wrapped;
  };
  return new Proxy(db, {
    get(target, key) {
      if (key === 'exec') return (sql: string) => (log.push(sql), target.exec(sql));
      if (key === 'prepare') return (sql: string) => (log.push(sql), statement(target.prepare(sql)));
      const value = Reflect.get(target, key) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** Each SQLite migration's text: what it runs on a blank database migrated up to it (foreign keys off, as migrate runs it). */
export function sqliteMigrationTexts(list: readonly Migration[]): Map<string, string> {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = OFF');
  const out = new Map<string, string>();
  for (const m of list) {
    const log: string[] = [];
    m.up(recording(db, log));
    out.set(m.name, log.join('\n;\n'));
  }
  db.close();
  return out;
}

/** The schema of a blank SQLite database migrated by `list`, as sqlite_master holds it. */
export function sqliteSchema(list: readonly Migration[]): string {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = OFF');
  for (const m of list) m.up(db);
  const rows = db.prepare('SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name').all();
  db.close();
  return JSON.stringify(rows);
}

