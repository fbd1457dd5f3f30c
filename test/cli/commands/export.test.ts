import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type Sim } from '../../../src/sim/index.js';
import { tempDir } from '../../support/cli.js';
import { runInProcess } from '../../support/in-process-cli.js';

describe('resq export', () => {
  let sim: Sim;
  let db: string;
  let dir: string;
  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 30 });
    dir = tempDir();
    const q = join(dir, 'q.jsonl');
    writeFileSync(
      q,
      [
        { id: 'x1', question: 'with "quotes", commas\nand lines @files=md,csv', lab: 'north', n: 3 },
        { id: 'x2', question: 'plan @confirm=2', lab: 'south' },
      ]
        .map((o) => JSON.stringify(o))
        .join('\n'),
    );
    db = join(dir, 'r.db');
    const policy = join(dir, 'p.yaml');
    writeFileSync(policy, 'confirm_scope:\n  approve_max_cost: 5\n');
    const r = await runInProcess(['run', q, '--db', db, '--batch', 'ex', '--policy', policy, '--no-download'], { RESQ_API_KEY: sim.keys[0], RESQ_BASE_URL: sim.url });
    expect(r.code).toBe(0);
  });
  afterAll(async () => sim.close());

  it('writes JSONL rows with exactly the documented fields', async () => {
    const out = join(dir, 'e.jsonl');
    expect((await runInProcess(['export', 'ex', '--db', db, '--output', out])).code).toBe(0);
    const rows = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(Object.keys(rows[0] ?? {})).toEqual(['id', 'question', 'status', 'run_status', 'thread_id', 'run_ids', 'text', 'decisions', 'files', 'error', 'meta']);
    expect(rows[0]).toMatchObject({ id: 'x1', status: 'completed', run_status: 'completed', meta: { lab: 'north', n: 3 } });
    expect((rows[0]?.files as unknown[]).length).toBe(2);
    expect(Object.keys((rows[0]?.files as Record<string, unknown>[])[0] ?? {})).toEqual(['id', 'role', 'name', 'path', 'bytes', 'sha256', 'status']);
    expect(rows[1]).toMatchObject({ id: 'x2', decisions: [{ tool: 'confirm_scope', answer: { approved: true }, by: 'policy' }] });
    expect((rows[1]?.run_ids as string[]).length).toBe(2);
  });

  it('writes CSV that flattens lists and round-trips through a CSV parser', async () => {
    const out = join(dir, 'e.csv');
    expect((await runInProcess(['export', 'ex', '--db', db, '--format', 'csv', '--output', out])).code).toBe(0);
    const rows = parse(readFileSync(out), { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(2);
    expect(rows[0]?.question).toBe('with "quotes", commas\nand lines @files=md,csv');
    expect(JSON.parse(rows[0]?.meta ?? '{}')).toEqual({ lab: 'north', n: 3 });
    expect(rows[1]?.run_ids?.split(' ')).toHaveLength(2);
    expect(JSON.parse(rows[1]?.decisions ?? '[]')[0].by).toBe('policy');
  });

  it('names the batches there are when asked for one that is not', async () => {
    const r = await runInProcess(['export', 'nope', '--db', db]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no batch named "nope" (batches: ex)');
  });
});
