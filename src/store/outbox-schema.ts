import { UNFINISHED_ROWS } from './common/flights.js';
import { TERMINAL_STATES, sqlStates } from './item-states.js';

// The outbox's table and triggers (migration 017_outbox of both adapters), defined beside each
// other: the same columns in both, and the same facts written by the same changes.
//
// Rows: a held item's fact (`item.held`, status `fact`, then `folded` once in a digest) or an
// event (status `pending`, then `sent`). Events are written by the change that causes them, in
// its transaction, by the triggers below (so no path that holds an item, ends one, or records a
// decision can forget its event), and only for a batch whose settings name receivers.

const TERMINAL = sqlStates(TERMINAL_STATES);

/** The share of the batch budget that is told first; all of it is told too. */
export const BUDGET_SHARES = [80, 100] as const;

/**
 * How a schema names a row's batch: 017's text id (`batch_id`, batches.id) or, from 020, the
 * batch's integer key (`batch_num`, batches.num).
 */
interface BatchKey {
  col: 'batch_id' | 'batch_num';
  of: 'id' | 'num';
  type: 'TEXT' | 'INTEGER';
}
const BY_ID: BatchKey = { col: 'batch_id', of: 'id', type: 'TEXT' };
const BY_NUM: BatchKey = { col: 'batch_num', of: 'num', type: 'INTEGER' };

const COLUMNS = (id: string, json: string, ms: string, k: BatchKey = BY_ID): string => `
    id ${id},
    ${k.col} ${k.type} NOT NULL REFERENCES batches(${k.of}) ON DELETE CASCADE,
    key TEXT NOT NULL,
    type TEXT NOT NULL,
    status TEXT NOT NULL,
    item_id TEXT, run_id TEXT, reason TEXT,
    data ${json} NOT NULL DEFAULT '{}',
    created_at ${ms} NOT NULL,
    due_at ${ms} NOT NULL DEFAULT 0,
    owner TEXT, lease_until ${ms}, fence ${ms} NOT NULL DEFAULT 0,
    attempts INTEGER NOT NULL DEFAULT 0,
    delivered TEXT NOT NULL DEFAULT '[]',
    last_error TEXT, last_error_at ${ms}, sent_at ${ms}`;

const INDEXES = `
  CREATE UNIQUE INDEX outbox_key ON outbox(batch_id, key);
  CREATE INDEX outbox_due ON outbox(due_at, id) WHERE status = 'pending';
  CREATE INDEX outbox_kind ON outbox(batch_id, type, status, created_at);`;

const SQLITE_NOW = `CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)`;

/** `batch.finished` once no item of the batch is unfinished: run after item_counts moved (exact then). */
const sqliteFinished = ({ col, of }: BatchKey): string => `
    INSERT OR IGNORE INTO outbox (${col}, key, type, status, created_at)
    SELECT new.${col}, 'finished:' || (SELECT count(*) FROM outbox o WHERE o.${col} = new.${col} AND o.type = 'batch.finished'),
           'batch.finished', 'pending', ${SQLITE_NOW}
    FROM batches b WHERE b.${of} = new.${col} AND json_extract(b.settings, '$.notify') IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM item_counts c WHERE c.${col} = new.${col} AND c.state IN ${UNFINISHED_ROWS} AND c.n > 0);`;

/**
 * SQLite's triggers of an item held and of the last item ending (017, and 020 by batch_num): a
 * held fact, and `batch.finished` once the kept counts have no unfinished item left.
 */
const sqliteItemTriggers = (k: BatchKey): string => `
  CREATE TRIGGER outbox_held AFTER UPDATE OF state ON items WHEN new.state = 'held' AND old.state IS NOT 'held' BEGIN
    INSERT OR IGNORE INTO outbox (${k.col}, key, type, status, item_id, run_id, reason, created_at)
    SELECT new.${k.col}, 'held:' || new.id || ':' || coalesce(new.run_id, ''), 'item.held', 'fact', new.id, new.run_id, new.hold_reason, ${SQLITE_NOW}
    FROM batches b WHERE b.${k.of} = new.${k.col} AND json_extract(b.settings, '$.notify') IS NOT NULL;
  END;
  -- An item ending moves item_counts (migration 012): a terminal state's count grows last.
  CREATE TRIGGER outbox_finished_grown AFTER UPDATE OF n ON item_counts WHEN new.state IN ${TERMINAL} AND new.n > old.n BEGIN
    ${sqliteFinished(k)}
  END;
  CREATE TRIGGER outbox_finished_first AFTER INSERT ON item_counts WHEN new.state IN ${TERMINAL} BEGIN
    ${sqliteFinished(k)}
  END;`;

/** SQLite's 017_outbox. */
export const SQLITE_OUTBOX = `
  CREATE TABLE outbox (${COLUMNS('INTEGER PRIMARY KEY AUTOINCREMENT', 'TEXT', 'INTEGER')});
  ${INDEXES}${sqliteItemTriggers(BY_ID)}
  CREATE TRIGGER outbox_budget AFTER INSERT ON decisions WHEN new.cost > 0 BEGIN
    INSERT OR IGNORE INTO outbox (batch_id, key, type, status, data, created_at)
    SELECT new.batch_id, 'budget:' || s.pct, 'budget.reached', 'pending',
           json_object('share', s.pct, 'budget', json_extract(b.policy, '$.confirm_scope.batch_budget'), 'approved', t.total), ${SQLITE_NOW}
    FROM batches b
      JOIN (SELECT coalesce(sum(cost), 0) AS total FROM decisions WHERE batch_id = new.batch_id) t
      JOIN (${BUDGET_SHARES.map((p) => `SELECT ${p} AS pct`).join(' UNION ALL ')}) s
    WHERE b.id = new.batch_id AND json_extract(b.settings, '$.notify') IS NOT NULL
      AND json_extract(b.policy, '$.confirm_scope.batch_budget') > 0
      AND t.total >= json_extract(b.policy, '$.confirm_scope.batch_budget') * s.pct / 100.0;
  END;`;

const PG_NOW = `(extract(epoch FROM clock_timestamp()) * 1000)::bigint`;

/**
 * PostgreSQL's `budget.reached` function (017, and 020 by batch_num): each share of the batch
 * budget the approved cost reached, told once. `totalInto` puts the approved cost in `total`
 * (017 sums the batch's decisions, 020 reads batch_spend), after the batch's row is locked.
 */
const pgOutboxBudget = (create: 'CREATE' | 'CREATE OR REPLACE', { col, of }: BatchKey, totalInto: string): string => `${create} FUNCTION outbox_budget() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE budget numeric; total numeric; pct integer;
  BEGIN
    SELECT (policy::jsonb #>> '{confirm_scope,batch_budget}')::numeric INTO budget FROM batches
      WHERE ${of} = NEW.${col} AND settings::jsonb ? 'notify' FOR NO KEY UPDATE;
    IF budget IS NULL OR budget <= 0 THEN RETURN NULL; END IF;
    ${totalInto};
    FOREACH pct IN ARRAY ARRAY[${BUDGET_SHARES.join(', ')}] LOOP
      IF total >= budget * pct / 100.0 THEN
        INSERT INTO outbox (${col}, key, type, status, data, created_at)
        VALUES (NEW.${col}, 'budget:' || pct, 'budget.reached', 'pending',
                json_build_object('share', pct, 'budget', budget, 'approved', total)::text, ${PG_NOW})
        ON CONFLICT (${col}, key) DO NOTHING;
      END IF;
    END LOOP;
    RETURN NULL;
  END $$;`;

/**
 * PostgreSQL's trigger function of an item moved (held or ended): its two look-ups of the
 * batch's queued and unfinished items filter on `batchOf` — `batch_id = NEW.batch_id` in 017,
 * `batch_num = NEW.batch_num` from 019 on (the items' reader indexes keyed by the batch's
 * integer key: on batch_id only the key's prefix is left, which reads every item of the batch
 * at each end).
 */
export function pgOutboxItemMoved(batchOf: string): string {
  return outboxItemMoved(batchOf, 'batch_id', 'id');
}

/** outbox_item_moved with the batch found by `batchCol` (the items' and outbox's column) = batches.`batchKey`. */
function outboxItemMoved(batchOf: string, batchCol: 'batch_id' | 'batch_num', batchKey: 'id' | 'num'): string {
  return `
  CREATE OR REPLACE FUNCTION outbox_item_moved() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE n integer;
  BEGIN
    IF NOT EXISTS (SELECT 1 FROM batches WHERE ${batchKey} = NEW.${batchCol} AND settings::jsonb ? 'notify') THEN RETURN NULL; END IF;
    IF NEW.state = 'held' THEN
      INSERT INTO outbox (${batchCol}, key, type, status, item_id, run_id, reason, created_at)
      VALUES (NEW.${batchCol}, 'held:' || NEW.id || ':' || coalesce(NEW.run_id, ''), 'item.held', 'fact', NEW.id, NEW.run_id, NEW.hold_reason, ${PG_NOW})
      ON CONFLICT (${batchCol}, key) DO NOTHING;
    ELSIF NEW.state IN ${TERMINAL} AND OLD.state NOT IN ${TERMINAL} THEN
      PERFORM 1 FROM batches WHERE ${batchKey} = NEW.${batchCol} FOR NO KEY UPDATE;
      IF NOT EXISTS (SELECT 1 FROM items WHERE ${batchOf} AND state = 'queued')
         AND NOT EXISTS (SELECT 1 FROM items WHERE ${batchOf} AND state <> 'queued' AND state IN ${UNFINISHED_ROWS}) THEN
        SELECT count(*) INTO n FROM outbox WHERE ${batchCol} = NEW.${batchCol} AND type = 'batch.finished';
        INSERT INTO outbox (${batchCol}, key, type, status, created_at)
        VALUES (NEW.${batchCol}, 'finished:' || n, 'batch.finished', 'pending', ${PG_NOW})
        ON CONFLICT (${batchCol}, key) DO NOTHING;
      END IF;
    END IF;
    RETURN NULL;
  END $$;`;
}

/**
 * PostgreSQL's 017_outbox. The batch's row is locked before an end or a budget is looked at:
 * two workers ending the last two items at once (or spending the last of a budget) are taken
 * one after the other, and the second sees the first's change (READ COMMITTED: each statement
 * of the function reads what is committed when it starts).
 */
export const PG_OUTBOX = `
  CREATE TABLE outbox (${COLUMNS('BIGSERIAL PRIMARY KEY', 'TEXT', 'BIGINT')});
  ${INDEXES}
  ${pgOutboxItemMoved('batch_id = NEW.batch_id')}
  CREATE TRIGGER outbox_item_moved AFTER UPDATE OF state ON items FOR EACH ROW
    WHEN (OLD.state IS DISTINCT FROM NEW.state AND (NEW.state = 'held' OR NEW.state IN ${TERMINAL}))
    EXECUTE FUNCTION outbox_item_moved();
  ${pgOutboxBudget('CREATE', BY_ID, 'SELECT coalesce(sum(cost), 0) INTO total FROM decisions WHERE batch_id = NEW.batch_id')}
  CREATE TRIGGER outbox_budget AFTER INSERT ON decisions FOR EACH ROW WHEN (NEW.cost > 0) EXECUTE FUNCTION outbox_budget();`;


// 020, PostgreSQL

/**
 * 020's counts' trigger functions (012's, by the batch's integer key): the same statements,
 * `batch_num` for `batch_id`. The triggers of 012 stay; only their functions are replaced.
 */
export function pgItemCountsByNum(): string {
  const upsert = (from: string, n: string): string => `
        INSERT INTO item_counts (batch_num, state, slot, n)
          SELECT batch_num, state, pg_backend_pid(), ${n} FROM ${from} GROUP BY batch_num, state
          ON CONFLICT (batch_num, state, slot) DO UPDATE SET n = item_counts.n + excluded.n;`;
  return `
  CREATE OR REPLACE FUNCTION item_counts_added() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN${upsert('added', 'count(*)')}
    RETURN NULL;
  END $$;
  CREATE OR REPLACE FUNCTION item_counts_removed() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN${upsert('removed', '-count(*)')}
    RETURN NULL;
  END $$;
  CREATE OR REPLACE FUNCTION item_counts_moved() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO item_counts (batch_num, state, slot, n)
      SELECT batch_num, state, pg_backend_pid(), sum(d) FROM (
        SELECT batch_num, state, -1 AS d FROM before_rows UNION ALL SELECT batch_num, state, 1 FROM after_rows) t
      GROUP BY batch_num, state HAVING sum(d) <> 0
      ON CONFLICT (batch_num, state, slot) DO UPDATE SET n = item_counts.n + excluded.n;
    RETURN NULL;
  END $$;`;
}

/**
 * 020's approved cost kept running: `batch_spend`, one row a batch, filled from the decisions
 * there are and kept by triggers on `decisions` (a decision added adds its cost; a decision
 * deleted, other than with its batch, takes it off). transitions.ts approvedCost reads the one
 * row at each pause instead of summing the batch's decisions. The insert's trigger locks the
 * batch's row before the spend's (FOR NO KEY UPDATE, as markPaused does before it reads the
 * total): every writer of a batch's spend takes the two in that one order, so a person's
 * answer and a worker's pause never wait on each other crosswise. Named `decisions_spend`, it
 * runs before `outbox_budget` (triggers of one event run in name order), which reads the total.
 */
export function pgBatchSpend(): string {
  return `
  CREATE TABLE batch_spend (
    batch_num BIGINT PRIMARY KEY REFERENCES batches(num) ON DELETE CASCADE,
    approved DOUBLE PRECISION NOT NULL DEFAULT 0);
  INSERT INTO batch_spend (batch_num, approved) SELECT batch_num, sum(cost) FROM decisions GROUP BY batch_num;
  CREATE FUNCTION batch_spend_added() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM 1 FROM batches WHERE num = NEW.batch_num FOR NO KEY UPDATE;
    INSERT INTO batch_spend (batch_num, approved) VALUES (NEW.batch_num, coalesce(NEW.cost, 0))
      ON CONFLICT (batch_num) DO UPDATE SET approved = batch_spend.approved + excluded.approved;
    RETURN NULL;
  END $$;
  CREATE TRIGGER decisions_spend AFTER INSERT ON decisions FOR EACH ROW WHEN (NEW.cost <> 0) EXECUTE FUNCTION batch_spend_added();
  CREATE FUNCTION batch_spend_removed() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    UPDATE batch_spend s SET approved = s.approved - r.cost
      FROM (SELECT batch_num, sum(cost) AS cost FROM removed GROUP BY batch_num) r WHERE s.batch_num = r.batch_num;
    RETURN NULL;
  END $$;
  CREATE TRIGGER decisions_unspend AFTER DELETE ON decisions REFERENCING OLD TABLE AS removed
    FOR EACH STATEMENT EXECUTE FUNCTION batch_spend_removed();`;
}

/**
 * 020's outbox trigger functions, by the batch's integer key: outbox_item_moved (019's look-ups
 * by batch_num, its rows written with batch_num) and outbox_budget reading the running total
 * (batch_spend) instead of summing the batch's decisions. Their triggers (017) stay.
 */
export function pgOutboxByNum(): string {
  return `${outboxItemMoved('batch_num = NEW.batch_num', 'batch_num', 'num')}
  ${pgOutboxBudget('CREATE OR REPLACE', BY_NUM, 'SELECT coalesce((SELECT approved FROM batch_spend WHERE batch_num = NEW.batch_num), 0) INTO total')}`;
}

// 020, SQLite

/**
 * SQLite's outbox from 020 (batch-num-keys.ts): the batch named by its integer `batch_num`. The
 * table's body (made as `outbox_020`, then renamed), its indexes and its triggers, the same facts
 * as 017's. The budget's events are written when the batch's approved cost (`batch_spend`, kept
 * by the triggers on decisions) grows: the total is that row, not a sum of the decisions.
 */
export const SQLITE_OUTBOX_TABLE_020 = COLUMNS('INTEGER PRIMARY KEY AUTOINCREMENT', 'TEXT', 'INTEGER', BY_NUM);

export const SQLITE_OUTBOX_INDEXES_020: readonly string[] = [
  // Read by: every write of an event (INSERT OR IGNORE: one event per key), outbox.ts and the triggers below.
  'CREATE UNIQUE INDEX outbox_for_key ON outbox(batch_num, key)',
  // Read by: outbox.ts claim, the pending events due (as 017's outbox_due).
  "CREATE INDEX outbox_due ON outbox(due_at, id) WHERE status = 'pending'",
  // Read by: outbox.ts collateHeld (a batch's facts and digests) and state (its undelivered events);
  // the batch.finished trigger's count of the batch's earlier ends.
  'CREATE INDEX outbox_for_kind ON outbox(batch_num, type, status, created_at)',
];

/**
 * `budget.reached` for each share of the budget the approved cost (`new.approved`, batch_spend)
 * reached, once per share. Run from batch_spend's upsert, where SQLite takes the outer
 * statement's conflict handling over this one's OR IGNORE: a share told already is left out by
 * the NOT EXISTS, not by a conflict.
 */
const sqliteBudget020 = `
    INSERT OR IGNORE INTO outbox (batch_num, key, type, status, data, created_at)
    SELECT new.batch_num, 'budget:' || s.pct, 'budget.reached', 'pending',
           json_object('share', s.pct, 'budget', json_extract(b.policy, '$.confirm_scope.batch_budget'), 'approved', new.approved), ${SQLITE_NOW}
    FROM batches b
      JOIN (${BUDGET_SHARES.map((p) => `SELECT ${p} AS pct`).join(' UNION ALL ')}) s
    WHERE b.num = new.batch_num AND json_extract(b.settings, '$.notify') IS NOT NULL
      AND json_extract(b.policy, '$.confirm_scope.batch_budget') > 0
      AND new.approved >= json_extract(b.policy, '$.confirm_scope.batch_budget') * s.pct / 100.0
      AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.batch_num = new.batch_num AND o.key = 'budget:' || s.pct);`;

export const SQLITE_OUTBOX_TRIGGERS_020 = `${sqliteItemTriggers(BY_NUM)}
  -- A decision with a cost moves batch_spend (batch-num-keys.ts): its approved cost is the total.
  CREATE TRIGGER outbox_budget_grown AFTER UPDATE OF approved ON batch_spend WHEN new.approved > old.approved BEGIN
    ${sqliteBudget020}
  END;
  CREATE TRIGGER outbox_budget_first AFTER INSERT ON batch_spend WHEN new.approved > 0 BEGIN
    ${sqliteBudget020}
  END;`;
