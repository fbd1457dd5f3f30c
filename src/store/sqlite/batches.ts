import { type BatchRow, batchFromRow } from '../rows/records.js';
import type { NewBatch } from '../shapes.js';
import type { InputProblem } from '../../errors.js';
import { type Clock, isoNow } from '../../clock.js';
import type { Db } from './database.js';
import type { BatchRecord, BatchSettings } from '../types.js';

/** The batches table. */
export class BatchRepo {
  readonly #db: Db;
  readonly #clock: Clock;
  /** Each batch's integer key by its id (batches are never renumbered). */
  readonly #nums = new Map<string, number>();
  constructor(db: Db, clock: Clock) {
    this.#db = db;
    this.#clock = clock;
  }

  /** The batch's integer key (migration 019), the one the database keys its flights by. */
  num(id: string): number {
    let n = this.#nums.get(id);
    if (n === undefined) {
      n = this.#db.prepare('SELECT num FROM batches WHERE id = ?').pluck().get(id) as number | undefined;
      if (n === undefined || n === null) throw new Error(`batch ${id} not found`);
      this.#nums.set(id, n);
    }
    return n;
  }

  /** Inserts a batch (call inside the load transaction). */
  insert(b: NewBatch): void {
    const now = isoNow(this.#clock);
    this.#db
      .prepare(
        `INSERT INTO batches (id, name, kind, source_path, source_sha256, base_url, settings, policy, created_at, updated_at, num)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, (SELECT coalesce(max(num), 0) + 1 FROM batches))`,
      )
      .run(
        b.id,
        b.name,
        b.kind,
        b.sourcePath,
        b.sourceSha256,
        b.baseUrl,
        JSON.stringify(b.settings),
        b.policy == null ? null : JSON.stringify(b.policy),
        now,
        now,
      );
  }

  /** Records how many items were loaded, which rows were rejected (--skip-invalid) and, when given, the file's sha256. */
  setLoaded(id: string, totalItems: number, invalid: InputProblem[], sourceSha256?: string): void {
    this.#db
      .prepare('UPDATE batches SET total_items = ?, invalid_rows = ?, source_sha256 = coalesce(?, source_sha256), updated_at = ? WHERE id = ?')
      .run(totalItems, JSON.stringify(invalid), sourceSha256 ?? null, isoNow(this.#clock), id);
  }

  /** Updates settings and policy when a batch is resumed with new flags. */
  updateSettings(id: string, settings: BatchSettings, policy: unknown, baseUrl: string | null): void {
    this.#db
      .prepare('UPDATE batches SET settings = ?, policy = ?, base_url = ?, updated_at = ? WHERE id = ?')
      .run(JSON.stringify(settings), policy == null ? null : JSON.stringify(policy), baseUrl, isoNow(this.#clock), id);
  }

  /** A batch by name or id, or null. */
  find(nameOrId: string): BatchRecord | null {
    const row = this.#db
      .prepare('SELECT * FROM batches WHERE name = ? OR id = ? LIMIT 1')
      .get(nameOrId, nameOrId) as BatchRow | undefined;
    return row ? batchFromRow(row) : null;
  }

  /** Every batch, newest first. */
  list(kind?: BatchRecord['kind']): BatchRecord[] {
    const rows = (
      kind
        ? this.#db.prepare('SELECT * FROM batches WHERE kind = ? ORDER BY created_at DESC, rowid DESC').all(kind)
        : this.#db.prepare('SELECT * FROM batches ORDER BY created_at DESC, rowid DESC').all()
    ) as BatchRow[];
    return rows.map(batchFromRow);
  }

  /** The most recently created batch, or null. */
  latest(kind?: BatchRecord['kind']): BatchRecord | null {
    return this.list(kind)[0] ?? null;
  }
}
