// PostgreSQL's 001_schema: the first schema, as SQLite's had become by its 006 (batches, items, threads, runs, decisions, files, model runs, workers).
// As shipped: text only, byte for byte; test/store/migration-text.test.ts pins its hash.

/** The whole of the migration, one script. */
export const SCHEMA_001 = `
      CREATE TABLE batches (
        id TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, kind TEXT NOT NULL DEFAULT 'runs',
        source_path TEXT NOT NULL, source_sha256 TEXT NOT NULL, base_url TEXT,
        settings TEXT NOT NULL DEFAULT '{}', policy TEXT, total_items INTEGER NOT NULL DEFAULT 0,
        invalid_rows TEXT NOT NULL DEFAULT '[]', created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
        cancelled_at TEXT, cap_limit INTEGER);
      CREATE TABLE items (
        batch_id TEXT NOT NULL REFERENCES batches(id) ON DELETE CASCADE, id TEXT NOT NULL,
        seq INTEGER NOT NULL, line INTEGER NOT NULL, question TEXT NOT NULL, thread_key TEXT,
        meta TEXT NOT NULL DEFAULT '{}', state TEXT NOT NULL DEFAULT 'queued', step INTEGER NOT NULL DEFAULT 0,
        pending_key TEXT, pending_answer TEXT, run_id TEXT, thread_id TEXT, run_status TEXT, text TEXT,
        error TEXT, hold_reason TEXT, started_at TEXT, finished_at TEXT, updated_at TEXT NOT NULL,
        owner TEXT, lease_until BIGINT, attempt INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (batch_id, id));
      CREATE UNIQUE INDEX items_seq ON items(batch_id, seq);
      CREATE INDEX items_state ON items(batch_id, state, seq) WHERE state <> 'queued';
      CREATE INDEX items_queued ON items(batch_id, seq) WHERE state = 'queued';
      CREATE INDEX items_thread ON items(batch_id, thread_key, seq) WHERE thread_key IS NOT NULL;
      CREATE INDEX items_active ON items(batch_id, state, owner, lease_until) WHERE state IN ('submitting', 'running', 'waiting');
      CREATE INDEX items_owner ON items(owner) WHERE owner IS NOT NULL;
      CREATE TABLE threads (
        batch_id TEXT NOT NULL REFERENCES batches(id) ON DELETE CASCADE, thread_key TEXT NOT NULL,
        thread_id TEXT NOT NULL, PRIMARY KEY (batch_id, thread_key));
      CREATE TABLE runs (
        ord BIGSERIAL, id TEXT PRIMARY KEY, batch_id TEXT NOT NULL, item_id TEXT NOT NULL, step INTEGER NOT NULL,
        parent_run_id TEXT, idempotency_key TEXT NOT NULL, status TEXT NOT NULL, thread_id TEXT,
        required_action TEXT, output TEXT, created_at TEXT NOT NULL, finished_at TEXT,
        FOREIGN KEY (batch_id, item_id) REFERENCES items(batch_id, id) ON DELETE CASCADE);
      CREATE INDEX runs_item ON runs(batch_id, item_id, ord);
      CREATE TABLE decisions (
        id BIGSERIAL PRIMARY KEY, batch_id TEXT NOT NULL, item_id TEXT NOT NULL, run_id TEXT NOT NULL,
        tool TEXT NOT NULL, input TEXT NOT NULL, answer TEXT NOT NULL, by TEXT NOT NULL CHECK (by IN ('policy', 'person')),
        reason TEXT, cost DOUBLE PRECISION NOT NULL DEFAULT 0, decided_at TEXT NOT NULL,
        FOREIGN KEY (batch_id, item_id) REFERENCES items(batch_id, id) ON DELETE CASCADE);
      CREATE INDEX decisions_item ON decisions(batch_id, item_id);
      CREATE TABLE files (
        ord BIGSERIAL, batch_id TEXT NOT NULL, id TEXT NOT NULL, item_id TEXT NOT NULL, run_id TEXT NOT NULL,
        tool TEXT, role TEXT, name TEXT, url TEXT NOT NULL, media_type TEXT, first_seen_at TEXT NOT NULL,
        expires_at TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'pending', path TEXT, bytes BIGINT, sha256 TEXT,
        error TEXT, host TEXT, PRIMARY KEY (batch_id, id),
        FOREIGN KEY (batch_id, item_id) REFERENCES items(batch_id, id) ON DELETE CASCADE);
      CREATE INDEX files_status ON files(batch_id, status);
      CREATE INDEX files_item ON files(batch_id, item_id, ord);
      CREATE TABLE model_batches (
        batch_id TEXT PRIMARY KEY REFERENCES batches(id) ON DELETE CASCADE, model_id TEXT NOT NULL,
        mode TEXT, description TEXT NOT NULL);
      CREATE TABLE model_runs (
        batch_id TEXT NOT NULL, item_id TEXT NOT NULL, model_id TEXT NOT NULL, inputs TEXT NOT NULL, mode TEXT,
        idempotency_key TEXT, submits INTEGER NOT NULL DEFAULT 0, model_run_id TEXT, http_status INTEGER,
        status TEXT, poll_url TEXT, outputs TEXT, error TEXT, credits DOUBLE PRECISION, polls INTEGER NOT NULL DEFAULT 0,
        submitted_at TEXT, admitted_at TEXT, finished_at TEXT, PRIMARY KEY (batch_id, item_id),
        FOREIGN KEY (batch_id, item_id) REFERENCES items(batch_id, id) ON DELETE CASCADE);
      CREATE TABLE workers (
        id TEXT PRIMARY KEY, batch_id TEXT NOT NULL REFERENCES batches(id) ON DELETE CASCADE, host TEXT NOT NULL,
        pid INTEGER NOT NULL, started_at TEXT NOT NULL, heartbeat_at BIGINT NOT NULL, stopped_at TEXT);
      CREATE INDEX workers_batch ON workers(batch_id, heartbeat_at);
    `;
