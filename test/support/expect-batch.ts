import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { ExportRow } from '../../src/runner/index.js';
import type { FixtureItem } from './batch-fixture.js';

/**
 * The export of a fixture batch that ran to its end: every item in its expected state with
 * one decision per pause and one run more than its pauses, its answer saying what the
 * decisions were, and every file downloaded whole (its bytes hash to the recorded sha256).
 */
export function expectBatchWhole(rows: readonly ExportRow[], items: readonly FixtureItem[]): void {
  expect(rows).toHaveLength(items.length);
  for (const it of items) {
    const row = rows.find((r) => r.id === it.id);
    expect(row?.status, it.id).toBe(it.state);
    expect(row?.decisions, it.id).toHaveLength(it.pauses);
    expect(row?.run_ids, it.id).toHaveLength(it.pauses + 1);
    for (const s of it.expect) expect(row?.text, it.id).toContain(s);
    for (const f of row?.files ?? []) {
      expect(f.status, `${it.id} ${f.id}`).toBe('downloaded');
      expect(createHash('sha256').update(readFileSync(f.path ?? '')).digest('hex'), `${it.id} ${f.id}`).toBe(f.sha256);
    }
  }
}
