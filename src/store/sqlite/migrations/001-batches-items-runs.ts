// SQLite's 001_batches_items_runs: the first schema (batches, items, threads, runs, decisions, files).
// As shipped: text only, byte for byte; test/store/migration-text.test.ts pins its hash.

/** The whole of the migration, one script. */
export const BATCHES_ITEMS_RUNS_001 = `
        CREATE TABLE batches (
          id TEXT PRIMARY KEY,
          name TEXT NOT NULL UNIQUE,
          kind TEXT NOT NULL DEFAULT 'runs',
          source_path TEXT NOT NULL,
          source_sha256 TEXT NOT NULL,
          base_url TEXT,
          settings TEXT NOT NULL DEFAULT '{}',
          policy TEXT,
          total_items INTEGER NOT NULL DEFAULT 0,
          invalid_rows TEXT NOT NULL DEFAULT '[]',
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL
        );
        CREATE TABLE items (
          batch_id TEXT NOT NULL REFERENCES batches(id) ON DELETE CASCADE,
          id TEXT NOT NULL,
          seq INTEGER NOT NULL,
          line INTEGER NOT NULL,
          question TEXT NOT NULL,
          thread_key TEXT,
          meta TEXT NOT NULL DEFAULT '{}',
          state TEXT NOT NULL DEFAULT 'queued',
          step INTEGER NOT NULL DEFAULT 0,
          pending_key TEXT,
          pending_answer TEXT,
          run_id TEXT,
          thread_id TEXT,
          run_status TEXT,
          text TEXT,
          error TEXT,
          hold_reason TEXT,
          started_at TEXT,
          finished_at TEXT,
          updated_at TEXT NOT NULL,
          PRIMARY KEY (batch_id, id)
        );
        CREATE UNIQUE INDEX items_seq ON items(batch_id, seq);
        CREATE INDEX items_state ON items(batch_id, state, seq);
        CREATE INDEX items_thread ON items(batch_id, thread_key, seq) WHERE thread_key IS NOT NULL;
        CREATE TABLE threads (
          batch_id TEXT NOT NULL REFERENCES batches(id) ON DELETE CASCADE,
          thread_key TEXT NOT NULL,
          thread_id TEXT NOT NULL,
          PRIMARY KEY (batch_id, thread_key)
        );
        CREATE TABLE runs (
          id TEXT PRIMARY KEY,
          batch_id TEXT NOT NULL,
          item_id TEXT NOT NULL,
          step INTEGER NOT NULL,
          parent_run_id TEXT REFERENCES runs(id),
          idempotency_key TEXT NOT NULL,
          status TEXT NOT NULL,
          thread_id TEXT,
          required_action TEXT,
          output TEXT,
          created_at TEXT NOT NULL,
          finished_at TEXT,
          FOREIGN KEY (batch_id, item_id) REFERENCES items(batch_id, id) ON DELETE CASCADE
        );
        CREATE INDEX runs_item ON runs(batch_id, item_id, step);
        CREATE TABLE decisions (
          id INTEGER PRIMARY KEY,
          batch_id TEXT NOT NULL,
          item_id TEXT NOT NULL,
          run_id TEXT NOT NULL,
          tool TEXT NOT NULL,
          input TEXT NOT NULL,
          answer TEXT NOT NULL,
          by TEXT NOT NULL CHECK (by IN ('policy', 'person')),
          reason TEXT,
          cost REAL NOT NULL DEFAULT 0,
          decided_at TEXT NOT NULL,
          FOREIGN KEY (batch_id, item_id) REFERENCES items(batch_id, id) ON DELETE CASCADE
        );
        CREATE INDEX decisions_item ON decisions(batch_id, item_id);
        CREATE TABLE files (
          batch_id TEXT NOT NULL,
          id TEXT NOT NULL,
          item_id TEXT NOT NULL,
          run_id TEXT NOT NULL,
          tool TEXT,
          role TEXT,
          name TEXT,
          url TEXT NOT NULL,
          media_type TEXT,
          first_seen_at TEXT NOT NULL,
          expires_at TEXT NOT NULL,
          status TEXT NOT NULL DEFAULT 'pending',
          path TEXT,
          bytes INTEGER,
          sha256 TEXT,
          error TEXT,
          PRIMARY KEY (batch_id, id),
          FOREIGN KEY (batch_id, item_id) REFERENCES items(batch_id, id) ON DELETE CASCADE
        );
        CREATE INDEX files_status ON files(batch_id, status);
      `;
