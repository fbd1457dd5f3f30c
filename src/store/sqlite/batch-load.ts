import { BatchExistsError } from '../../errors.js';
import type { BatchLoader, DuplicateItem, NewBatch, NewItem } from '../shapes.js';
import type { Db } from './database.js';
import { isoNow } from '../../clock.js';
import type { Repos } from './repos.js';

/**
 * Starts loading a batch. The batch row and every item are written in one open
 * transaction while the question file streams; commit or rollback ends it.
 */
export function beginBatchLoad(r: Repos, batch: NewBatch, opts: { bulk?: boolean } = {}): BatchLoader {
  const db = r.db;
  const restore = opts.bulk ? bulkJournal(db) : () => {};
  try {
    db.exec('BEGIN IMMEDIATE');
  } catch (e) {
    restore();
    throw e;
  }
  let n = 0;
  const now = isoNow(r.clock);
  try {
    // Checked under the write lock: two processes loading one batch at once load it once.
    if (r.batches.find(batch.name)) throw new BatchExistsError(`batch "${batch.name}" exists`);
    r.batches.insert(batch);
  } catch (e) {
    db.exec('ROLLBACK');
    restore();
    throw e;
  }
  let buffer: NewItem[] = [];
  const flush = (): DuplicateItem[] => {
    const refused = buffer.length ? r.items.insertNew(batch.id, buffer, now) : [];
    n += buffer.length - refused.length;
    buffer = [];
    return refused;
  };
  return {
    add: async (item) => {
      buffer.push(item);
      return buffer.length >= 256 ? flush() : [];
    },
    addColumns: async (cols, seq0) => {
      const refused = flush();
      const more = r.items.insertNewColumns(batch.id, cols, seq0, now);
      n += cols.ids.length - more.length;
      return refused.concat(more);
    },
    flush: async () => flush(),
    commit: async (invalid, sourceSha256) => {
      if (flush().length) throw new Error('batch load: duplicate ids left unreported (call flush before commit)');
      r.batches.setLoaded(batch.id, n, invalid, sourceSha256);
      db.exec('COMMIT');
      restore();
      return n;
    },
    rollback: async () => {
      if (db.inTransaction) db.exec('ROLLBACK');
      restore();
    },
  };
}

/**
 * For a large load: a rollback journal instead of the WAL while it runs. In WAL mode
 * every new page is written twice (to the WAL, then copied into the database by the
 * checkpoint); a rollback journal saves only pages that existed before, and a load
 * mostly appends new ones (1M items: about 1 s less). The load stays one transaction: a
 * killed process leaves a hot journal that the next open rolls back. Only possible
 * while no other connection has the file open; otherwise the load goes through the WAL.
 * Returns what puts WAL mode back.
 */
function bulkJournal(db: Db): () => void {
  if (db.memory || db.inTransaction) return () => {};
  // Another connection makes the switch fail with SQLITE_BUSY: find out at once, not
  // after the busy timeout.
  const timeout = db.pragma('busy_timeout', { simple: true });
  let mode = 'wal';
  try {
    db.pragma('busy_timeout = 0');
    mode = String(db.pragma('journal_mode = DELETE', { simple: true }));
  } catch (e) {
    if ((e as { code?: string }).code !== 'SQLITE_BUSY') throw e;
  } finally {
    db.pragma(`busy_timeout = ${Number(timeout)}`);
  }
  if (mode !== 'delete') return () => {};
  let done = false;
  return () => {
    if (done || !db.open) return;
    done = true;
    db.pragma('journal_mode = WAL');
  };
}

