import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvCells, csvColumns, csvRecord, neutralise } from '../../src/runner/export-csv.js';
import type { ExportRow } from '../../src/read/export-rows.js';

const row: ExportRow = {
  id: 'q1', question: 'Why?', status: 'failed', run_status: 'failed', thread_id: 't1', run_ids: ['r1', 'r2'], text: null,
  decisions: [
    { tool: 'confirm_scope', input: { cost: 2 }, answer: { approved: true }, by: 'policy', reason: 'cost 2 <= 5', note: null, cost: 2 },
    { tool: 'ask_choice', input: {}, answer: { decision: 'chosen', chosen: ['a', 'b'], note: 'both' }, by: 'person', person: 'Ana', reason: 'both', note: 'both', cost: 0 },
  ],
  files: [], error: 'boom', error_code: 'agent_error', cost: 2, duration_seconds: 1.5, created_at: '2026-01-01T00:00:00.000Z',
  finished_at: '2026-01-01T00:00:02.000Z', meta: { topic: 'chem', n: 3, none: null, list: [1, 'a'] }, scores: {},
};

describe('CSV export cells', () => {
  it("neutralises a cell starting with = + - @ tab or CR with a single quote, and nothing else", () => {
    for (const c of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx']) expect(neutralise(c)).toBe(`'${c}`);
    for (const c of ['', 'plain', ' =1', "'=already", 'a=b', '1-2', '\nx']) expect(neutralise(c)).toBe(c);
  });

  it('puts one meta.KEY column per key between the question and the status', () => {
    const cols = csvColumns(['topic', 'n']);
    expect(cols.slice(0, 5)).toEqual(['id', 'question', 'meta.topic', 'meta.n', 'status']);
    expect(cols).toEqual(expect.arrayContaining(['error_code', 'error', 'cost', 'duration_seconds', 'created_at', 'finished_at', 'decision_reasons', 'decided_by', 'decision_notes']));
  });

  it('fills meta cells by key: text as is, other values as JSON, absent and null empty; lists stay JSON text', () => {
    const cols = csvColumns(['topic', 'n', 'none', 'list', 'missing']);
    const cells = csvCells(row, ['topic', 'n', 'none', 'list', 'missing']);
    const byCol = Object.fromEntries(cols.map((c, i) => [c, cells[i]]));
    expect(byCol).toMatchObject({
      'meta.topic': 'chem', 'meta.n': '3', 'meta.none': '', 'meta.list': '[1,"a"]', 'meta.missing': '',
      error_code: 'agent_error', error: 'boom', cost: '2', duration_seconds: '1.5', run_ids: 'r1 r2', text: '',
      decision_reasons: '["cost 2 <= 5","both"]',
      decided_by: 'confirm_scope: approved by the policy; ask_choice: chose a, b by Ana',
      decision_notes: 'ask_choice: both',
    });
    expect(JSON.parse(byCol.decisions!)).toEqual(row.decisions);
  });

  it('a key named like an object property is not read from the prototype', () => {
    expect(csvCells({ ...row, meta: {} }, ['constructor', 'toString']).slice(2, 4)).toEqual(['', '']);
  });

  it('writes a record guarded by default, raw on request, with CRLF for Excel', () => {
    expect(csvRecord(['=1', 'a,b'])).toBe(`'=1,"a,b"\n`);
    expect(csvRecord(['=1'], { raw: true })).toBe('=1\n');
    expect(csvRecord(['x', 'y'], { excel: true })).toBe('x,y\r\n');
    expect(csvRecord(['say "hi"', 'a\nb', 'c\rd', ' plain '])).toBe('"say ""hi""","a\nb","c\rd", plain \n');
  });

  it('writes what csv-parse reads back cell for cell', () => {
    const cells = ['q,1', '"quoted"', 'line\nbreak', 'café', '', 'end'];
    expect(parse(csvRecord(cells, { raw: true }))).toEqual([cells]);
    expect(parse(csvRecord(cells, { raw: true, excel: true }))).toEqual([cells]);
  });
});
