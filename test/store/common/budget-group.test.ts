import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/errors.js';
import { groupLeaderSql, groupSpendSql, spendsWithNum, spendsWithSql } from '../../../src/store/common/budget-group.js';

/** A database with a group (leader 1, members 2 and 3), a batch of its own (4), and spends. */
function groups(): Database.Database {
  const db = new Database(':memory:');
  db.exec(`
    CREATE TABLE batches (num INTEGER PRIMARY KEY, id TEXT UNIQUE, spends_with INTEGER);
    CREATE TABLE batch_spend (batch_num INTEGER PRIMARY KEY, approved REAL NOT NULL);
    INSERT INTO batches VALUES (1, 'P', NULL), (2, 'J', 1), (3, 'K', 1), (4, 'O', NULL), (5, 'E', NULL);
    INSERT INTO batch_spend VALUES (1, 4), (2, 3), (3, 0.5), (4, 100);`);
  return db;
}

describe('budget groups in SQL (both adapters)', () => {
  it("a batch's group spend is its leader's and every member's, from any member; a batch of its own counts its own; none spent is 0", () => {
    const db = groups();
    const spend = db.prepare(groupSpendSql('id = ?')).pluck();
    expect(['P', 'J', 'K', 'O', 'E'].map((id) => spend.get(id))).toEqual([7.5, 7.5, 7.5, 100, 0]);
    expect(spend.get('none')).toBe(0);
    db.close();
  });

  it("the leader of a member is the batch it spends with, of a leader itself; a new batch spending with a member spends with its leader", () => {
    const db = groups();
    expect(['P', 'J', 'O'].map((id) => db.prepare(`SELECT ${groupLeaderSql('id = ?')}`).pluck().get(id))).toEqual([1, 1, 4]);
    expect(db.prepare(`SELECT ${spendsWithSql('?')}`).pluck().get('K')).toBe(1);
    expect(spendsWithNum('K', 1)).toBe(1);
    expect(spendsWithNum('K', '1')).toBe(1);
    expect(() => spendsWithNum('gone', null)).toThrow(new InputError('batch "gone" to spend with is not in the database'));
    db.close();
  });

  it('a leader key the database gives that is not a whole number in range is refused, not used', () => {
    for (const bad of ['x', 1.5, -1, '1e300', 2 ** 60]) expect(() => spendsWithNum('K', bad)).toThrow(/a key that is not one/);
  });
});
