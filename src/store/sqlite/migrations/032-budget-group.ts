// SQLite's 032_budget_group (issue 40.4): text only, never built from live code.
// test/store/migration-text.test.ts pins its hash.
//
// A batch may spend with another's budget (an agent judge's companion batch with the batch it
// judges; `spends_with`: that batch's num, NULL: its own budget): the budget checks count both
// (common/budget-group.ts). Judge batches made before are found by their settings' judgeOf
// (settings that are not JSON leave their batch alone). The budget.reached events count the
// group's spend too, against the leader's budget, told to the leader: the same as before for a
// batch of its own (its leader is itself).

/** The statements of 032, in order. */
export const BUDGET_GROUP_032 = `
  ALTER TABLE batches ADD COLUMN spends_with INTEGER REFERENCES batches(num) ON DELETE SET NULL;
  UPDATE batches SET spends_with = (
    SELECT p.num FROM batches p
    WHERE p.num <> batches.num
      AND p.id = CASE WHEN json_valid(batches.settings) THEN CASE WHEN json_type(batches.settings, '$.judgeOf') = 'text' THEN json_extract(batches.settings, '$.judgeOf') END END)
  WHERE settings LIKE '%"judgeOf"%';
  -- budget-group.ts: the batches that spend with a group's leader.
  CREATE INDEX batches_spending_with ON batches(spends_with) WHERE spends_with IS NOT NULL;
  DROP TRIGGER outbox_budget_grown;
  DROP TRIGGER outbox_budget_first;
  CREATE TRIGGER outbox_budget_grown AFTER UPDATE OF approved ON batch_spend WHEN new.approved > old.approved BEGIN
    INSERT OR IGNORE INTO outbox (batch_num, key, type, status, data, created_at)
    SELECT b.num, 'budget:' || s.pct, 'budget.reached', 'pending',
           json_object('share', s.pct, 'budget', json_extract(b.policy, '$.confirm_scope.batch_budget'), 'approved', g.total), CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
    FROM batches b
      JOIN (SELECT 80 AS pct UNION ALL SELECT 100 AS pct) s
      JOIN (SELECT coalesce(sum(x.approved), 0) AS total FROM batches m JOIN batch_spend x ON x.batch_num = m.num
            WHERE m.num = (SELECT coalesce(spends_with, num) FROM batches WHERE num = new.batch_num)
               OR m.spends_with = (SELECT coalesce(spends_with, num) FROM batches WHERE num = new.batch_num)) g
    WHERE b.num = (SELECT coalesce(spends_with, num) FROM batches WHERE num = new.batch_num)
      AND json_extract(b.settings, '$.notify') IS NOT NULL
      AND json_extract(b.policy, '$.confirm_scope.batch_budget') > 0
      AND g.total >= json_extract(b.policy, '$.confirm_scope.batch_budget') * s.pct / 100.0
      AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.batch_num = b.num AND o.key = 'budget:' || s.pct);
  END;
  CREATE TRIGGER outbox_budget_first AFTER INSERT ON batch_spend WHEN new.approved > 0 BEGIN
    INSERT OR IGNORE INTO outbox (batch_num, key, type, status, data, created_at)
    SELECT b.num, 'budget:' || s.pct, 'budget.reached', 'pending',
           json_object('share', s.pct, 'budget', json_extract(b.policy, '$.confirm_scope.batch_budget'), 'approved', g.total), CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
    FROM batches b
      JOIN (SELECT 80 AS pct UNION ALL SELECT 100 AS pct) s
      JOIN (SELECT coalesce(sum(x.approved), 0) AS total FROM batches m JOIN batch_spend x ON x.batch_num = m.num
            WHERE m.num = (SELECT coalesce(spends_with, num) FROM batches WHERE num = new.batch_num)
               OR m.spends_with = (SELECT coalesce(spends_with, num) FROM batches WHERE num = new.batch_num)) g
    WHERE b.num = (SELECT coalesce(spends_with, num) FROM batches WHERE num = new.batch_num)
      AND json_extract(b.settings, '$.notify') IS NOT NULL
      AND json_extract(b.policy, '$.confirm_scope.batch_budget') > 0
      AND g.total >= json_extract(b.policy, '$.confirm_scope.batch_budget') * s.pct / 100.0
      AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.batch_num = b.num AND o.key = 'budget:' || s.pct);
  END;
`;
