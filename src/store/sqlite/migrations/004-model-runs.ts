// SQLite's 004_model_runs: direct model runs, one row per input row of a `models` batch, beside its item, and their view.
// As shipped: text only, byte for byte; test/store/migration-text.test.ts pins its hash.

/** The whole of the migration, one script. */
export const MODEL_RUNS_004 = `
        CREATE TABLE model_batches (
          batch_id TEXT PRIMARY KEY REFERENCES batches(id) ON DELETE CASCADE,
          model_id TEXT NOT NULL,
          mode TEXT,
          description TEXT NOT NULL
        );
        CREATE TABLE model_runs (
          batch_id TEXT NOT NULL,
          item_id TEXT NOT NULL,
          model_id TEXT NOT NULL,
          inputs TEXT NOT NULL,
          mode TEXT,
          idempotency_key TEXT,
          submits INTEGER NOT NULL DEFAULT 0,
          model_run_id TEXT,
          http_status INTEGER,
          status TEXT,
          poll_url TEXT,
          outputs TEXT,
          error TEXT,
          credits REAL,
          polls INTEGER NOT NULL DEFAULT 0,
          submitted_at TEXT,
          admitted_at TEXT,
          finished_at TEXT,
          PRIMARY KEY (batch_id, item_id),
          FOREIGN KEY (batch_id, item_id) REFERENCES items(batch_id, id) ON DELETE CASCADE
        );
        CREATE INDEX model_runs_run ON model_runs(model_run_id) WHERE model_run_id IS NOT NULL;
        CREATE VIEW model_run_list AS
          SELECT b.name AS batch, m.item_id, i.state, m.model_id, m.model_run_id, m.status, m.credits,
                 m.error, m.polls, m.submitted_at, m.admitted_at, m.finished_at
          FROM model_runs m JOIN batches b ON b.id = m.batch_id
          JOIN items i ON i.batch_id = m.batch_id AND i.id = m.item_id;
      `;
