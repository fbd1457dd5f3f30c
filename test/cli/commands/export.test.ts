import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Verdict } from '../../../src/score/types.js';
import { startSim, type Sim } from '../../../src/sim/index.js';
import { SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { tempDir } from '../../support/cli.js';
import { runInProcess } from '../../support/in-process-cli.js';

const JSONL_FIELDS = [
  'id', 'question', 'status', 'run_status', 'thread_id', 'run_ids', 'text', 'decisions', 'files',
  'error', 'error_code', 'cost', 'duration_seconds', 'created_at', 'finished_at', 'meta', 'scores',
];

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
        { id: 'x2', question: 'plan @confirm=2', lab: 'south', formula: '=HYPERLINK("http://x","y")' },
        { id: 'x3', question: '=1+2 café @fail', lab: '-north', tags: ['a', 'b'] },
      ]
        .map((o) => JSON.stringify(o))
        .join('\n'),
    );
    db = join(dir, 'r.db');
    const policy = join(dir, 'p.yaml');
    writeFileSync(policy, 'confirm_scope:\n  approve_max_cost: 5\n');
    const r = await runInProcess(['run', q, '--db', db, '--batch', 'ex', '--policy', policy, '--no-download'], { RESQ_API_KEY: sim.keys[0], RESQ_BASE_URL: sim.url });
    expect(r.code).toBe(1);
  });
  afterAll(async () => sim.close());

  async function exported(args: string[], name: string): Promise<Buffer> {
    const out = join(dir, name);
    const r = await runInProcess(['export', 'ex', '--db', db, '--output', out, ...args]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    return readFileSync(out);
  }

  it('writes JSONL rows with exactly the documented fields: errors with their code, cost, duration and times', async () => {
    const rows = (await exported([], 'e.jsonl')).toString('utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(Object.keys(rows[0] ?? {})).toEqual(JSONL_FIELDS);
    expect(rows[0]).toMatchObject({ id: 'x1', status: 'completed', run_status: 'completed', error: null, error_code: null, cost: 0, meta: { lab: 'north', n: 3 }, scores: {} });
    expect((rows[0]?.files as unknown[]).length).toBe(2);
    expect(Object.keys((rows[0]?.files as Record<string, unknown>[])[0] ?? {})).toEqual(['id', 'role', 'name', 'path', 'bytes', 'sha256', 'status']);
    expect(rows[1]).toMatchObject({ id: 'x2', cost: 2, decisions: [{ tool: 'confirm_scope', answer: { approved: true }, by: 'policy', cost: 2 }] });
    expect(typeof (rows[1]?.decisions as { reason: unknown }[])[0]?.reason).toBe('string');
    expect((rows[1]?.run_ids as string[]).length).toBe(2);
    expect(rows[2]).toMatchObject({ id: 'x3', status: 'failed', run_status: 'failed', error_code: 'agent_error', error: 'simulated failure (@fail)' });
    for (const r of rows) {
      expect(r.duration_seconds).toBeGreaterThan(0);
      expect(Date.parse(r.created_at as string)).toBeLessThanOrEqual(Date.parse(r.finished_at as string));
    }
  });

  it('writes CSV with one column per meta field, the error, cost, times and reasons; formulas neutralised', async () => {
    const rows = parse(await exported(['--format', 'csv'], 'e.csv'), { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(3);
    expect(Object.keys(rows[0]!)).toEqual([
      'id', 'question', 'meta.lab', 'meta.n', 'meta.formula', 'meta.tags', 'status', 'run_status', 'error_code', 'error', 'cost',
      'duration_seconds', 'created_at', 'finished_at', 'text', 'decision_reasons', 'decided_by', 'decision_notes', 'decisions', 'files', 'run_ids', 'thread_id',
    ]);
    expect(rows[0]).toMatchObject({ question: 'with "quotes", commas\nand lines @files=md,csv', 'meta.lab': 'north', 'meta.n': '3', 'meta.formula': '', 'meta.tags': '' });
    expect(rows[1]?.['meta.formula']).toBe(`'=HYPERLINK("http://x","y")`);
    expect(rows[1]?.run_ids?.split(' ')).toHaveLength(2);
    expect(rows[1]?.cost).toBe('2');
    expect(JSON.parse(rows[1]?.decisions ?? '[]')[0].by).toBe('policy');
    expect(JSON.parse(rows[1]?.decision_reasons ?? '[]')).toHaveLength(1);
    expect(rows[2]).toMatchObject({ question: "'=1+2 café @fail", 'meta.lab': "'-north", 'meta.tags': '["a","b"]', error_code: 'agent_error', error: 'simulated failure (@fail)' });
    expect(Number(rows[2]?.duration_seconds)).toBeGreaterThan(0);
    expect(rows[2]?.finished_at).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('--raw leaves cells as they are', async () => {
    const rows = parse(await exported(['--format', 'csv', '--raw'], 'raw.csv'), { columns: true }) as Record<string, string>[];
    expect(rows[2]).toMatchObject({ question: '=1+2 café @fail', 'meta.lab': '-north' });
    expect(rows[1]?.['meta.formula']).toBe('=HYPERLINK("http://x","y")');
  });

  it('--excel writes a UTF-8 byte order mark and CRLF line ends', async () => {
    const bytes = await exported(['--format', 'csv', '--excel'], 'excel.csv');
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.toString('utf8');
    expect(text.split('\r\n')[0]).toMatch(/^\ufeffid,question,meta\.lab,/);
    expect(text.endsWith('\r\n')).toBe(true);
    const rows = parse(bytes, { columns: true, bom: true }) as Record<string, string>[];
    expect(rows[2]?.question).toBe("'=1+2 café @fail");
  });

  it('--failed exports only the failed and errored items, in either format', async () => {
    const jsonl = (await exported(['--failed'], 'failed.jsonl')).toString('utf8').trim().split('\n').map((l) => JSON.parse(l) as { id: string });
    expect(jsonl.map((r) => r.id)).toEqual(['x3']);
    const csv = parse(await exported(['--failed', '--format', 'csv'], 'failed.csv'), { columns: true }) as Record<string, string>[];
    expect(csv.map((r) => [r.id, r.error_code])).toEqual([['x3', 'agent_error']]);
    // Every meta column of the batch, so files of several exports line up.
    expect(Object.keys(csv[0]!)).toContain('meta.formula');
  });

  it('refuses CSV-only flags with JSONL, and --failed with --invalid, writing nothing', async () => {
    const out = join(dir, 'never.jsonl');
    for (const [args, says] of [
      [['--excel'], '--excel applies to --format csv only'],
      [['--raw'], '--raw applies to --format csv only'],
      [['--failed', '--invalid'], '--invalid and --failed'],
      [['--json', '--format', 'csv'], '--json asks for JSONL and --format csv for CSV'],
    ] as const) {
      const r = await runInProcess(['export', 'ex', '--db', db, '--output', out, ...args]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(says);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    expect(existsSync(out)).toBe(false);
  });

  it('--json is the JSONL the export writes by default', async () => {
    expect((await exported(['--json'], 'j.jsonl')).equals(await exported([], 'plain.jsonl'))).toBe(true);
  });

  it('names the batches there are when asked for one that is not', async () => {
    const r = await runInProcess(['export', 'nope', '--db', db]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no batch named "nope" (batches: ex)');
  });
});

describe('resq export: the verdicts', () => {
  let sim: Sim;
  let db: string;
  let dir: string;
  const verdict = (scorer: string, pass: boolean | null, reason: string, score: number | null = pass === null ? null : Number(pass)): Verdict => ({
    scorer, version: 'v1', pass, score, reason, scoredAt: '2026-01-01T00:00:00.000Z', by: 'includes',
  });
  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 20 });
    dir = tempDir();
    const q = join(dir, 'q.jsonl');
    writeFileSync(q, ['a', 'b', 'c', 'd', 'e'].map((id) => JSON.stringify({ id, question: `question ${id}?${id === 'e' ? ' @fail' : ''}` })).join('\n'));
    db = join(dir, 'r.db');
    const r = await runInProcess(['run', q, '--db', db, '--batch', 'judged', '--no-download'], { RESQ_API_KEY: sim.keys[0], RESQ_BASE_URL: sim.url });
    expect(r.code).toBe(1);
    const store = await SqliteStore.open(db);
    const batch = (await store.findBatch('judged'))!;
    await store.recordVerdicts(batch.id, 'a', [verdict('mentions', true, 'contains "42"'), verdict('value', false, 'off by 3', 0.25)]);
    // A reason a spreadsheet would run as a formula.
    await store.recordVerdicts(batch.id, 'b', [verdict('mentions', false, '=HYPERLINK("http://x","y")')]);
    await store.recordVerdicts(batch.id, 'd', [verdict('mentions', null, 'no number in the answer')]);
    await store.close();
  });
  afterAll(async () => sim.close());

  async function exported(args: string[], name: string): Promise<string> {
    const out = join(dir, name);
    const r = await runInProcess(['export', 'judged', '--db', db, '--output', out, ...args]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    return readFileSync(out, 'utf8');
  }

  it('gives each JSONL row scores: {name: {pass, score, reason}}, every scorer named, null where not judged', async () => {
    const rows = (await exported([], 'v.jsonl')).trim().split('\n').map((l) => JSON.parse(l) as { id: string; scores: unknown });
    const none = { pass: null, score: null, reason: null };
    expect(rows.map((r) => [r.id, r.scores])).toEqual([
      ['a', { mentions: { pass: true, score: 1, reason: 'contains "42"' }, value: { pass: false, score: 0.25, reason: 'off by 3' } }],
      ['b', { mentions: { pass: false, score: 0, reason: '=HYPERLINK("http://x","y")' }, value: none }],
      ['c', { mentions: none, value: none }],
      ['d', { mentions: { pass: null, score: null, reason: 'no number in the answer' }, value: none }],
      ['e', { mentions: none, value: none }],
    ]);
  });

  it('gives the CSV a pass_NAME and a score_NAME column per scorer after the fixed ones', async () => {
    const text = await exported(['--format', 'csv'], 'v.csv');
    const header = text.split('\n')[0]!.split(',');
    expect(header.slice(-5)).toEqual(['thread_id', 'pass_mentions', 'score_mentions', 'pass_value', 'score_value']);
    const rows = parse(text, { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => [r.id, r.pass_mentions, r.score_mentions, r.pass_value, r.score_value])).toEqual([
      ['a', 'true', '1', 'false', '0.25'],
      ['b', 'false', '0', '', ''],
      ['c', '', '', '', ''],
      ['d', '', '', '', ''],
      ['e', '', '', '', ''],
    ]);
  });
});
