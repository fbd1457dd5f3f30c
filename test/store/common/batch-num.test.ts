import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { batchNumOf } from '../../../src/store/common/batch-num.js';
import { batchNumOf as sqliteBatchNum } from '../../../src/store/sqlite/statement-cache.js';
import { BATCH_NUM } from '../../../src/store/postgres/sql.js';

describe('the batch-number lookup', () => {
  it('is written once: both adapters use common/batch-num.ts, and it finds the batch by its id inside a statement', () => {
    expect(sqliteBatchNum).toBe(batchNumOf);
    expect(BATCH_NUM).toBe(batchNumOf);
    const db = new Database(':memory:');
    db.exec(`CREATE TABLE batches (num INTEGER PRIMARY KEY, id TEXT UNIQUE); INSERT INTO batches (num, id) VALUES (7, 'b-7'), (9, 'b-9');`);
    expect(db.prepare(`SELECT ${batchNumOf()}`).pluck().get('b-9')).toBe(9);
    expect(db.prepare(`SELECT ${batchNumOf('@b')}`).pluck().get({ b: 'b-7' })).toBe(7);
    expect(db.prepare(`SELECT ${batchNumOf()}`).pluck().get('none')).toBeNull();
    db.close();
  });
});
