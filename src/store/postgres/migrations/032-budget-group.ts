// PostgreSQL's 032_budget_group (issue 40.4), as the SQLite adapter's: text only, never built
// from live code. test/store/migration-text.test.ts pins its hash.
//
// A batch may spend with another's budget (`spends_with`, NULL: its own), backfilled for judge
// batches made before from their settings' judgeOf; settings that are not JSON (never written
// so by resq) leave their batch alone, never fail the upgrade. outbox_budget counts the group's
// spend against the leader's budget and tells the leader, under the leader's row lock: every
// spending decision takes that lock first (transitions.ts lockedSpend), then its own batch's.

/** The statements of 032, in order. */
export const BUDGET_GROUP_032 = `
  ALTER TABLE batches ADD COLUMN spends_with BIGINT REFERENCES batches(num) ON DELETE SET NULL;
  CREATE FUNCTION pg_temp.judge_of(settings text) RETURNS text LANGUAGE plpgsql AS $$
  BEGIN
    RETURN CASE WHEN jsonb_typeof(settings::jsonb -> 'judgeOf') = 'string' THEN settings::jsonb ->> 'judgeOf' END;
  EXCEPTION WHEN data_exception THEN
    RETURN NULL;
  END $$;
  UPDATE batches b SET spends_with = p.num FROM batches p
    WHERE b.settings LIKE '%"judgeOf"%' AND p.id = pg_temp.judge_of(b.settings) AND p.num <> b.num;
  DROP FUNCTION pg_temp.judge_of(text);
  -- budget-group.ts: the batches that spend with a group's leader.
  CREATE INDEX batches_spending_with ON batches(spends_with) WHERE spends_with IS NOT NULL;
  CREATE OR REPLACE FUNCTION outbox_budget() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE leader bigint; budget numeric; total numeric; pct integer;
  BEGIN
    SELECT coalesce(spends_with, num) INTO leader FROM batches WHERE num = NEW.batch_num;
    SELECT (policy::jsonb #>> '{confirm_scope,batch_budget}')::numeric INTO budget FROM batches
      WHERE num = leader AND settings::jsonb ? 'notify' FOR NO KEY UPDATE;
    IF budget IS NULL OR budget <= 0 THEN RETURN NULL; END IF;
    SELECT coalesce(sum(s.approved), 0) INTO total FROM batches m JOIN batch_spend s ON s.batch_num = m.num
      WHERE m.num = leader OR m.spends_with = leader;
    FOREACH pct IN ARRAY ARRAY[80, 100] LOOP
      IF total >= budget * pct / 100.0 THEN
        INSERT INTO outbox (batch_num, key, type, status, data, created_at)
        VALUES (leader, 'budget:' || pct, 'budget.reached', 'pending',
                json_build_object('share', pct, 'budget', budget, 'approved', total)::text, (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
        ON CONFLICT (batch_num, key) DO NOTHING;
      END IF;
    END LOOP;
    RETURN NULL;
  END $$;
`;
