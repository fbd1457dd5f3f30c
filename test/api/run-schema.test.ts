import { describe, expect, it } from 'vitest';
import { FileRefSchema, isSaneServiceTime, RunSchema, ToolResultSchema } from '../../src/api/run-schema.js';

describe('RunSchema', () => {
  it('keeps unknown fields and unknown status strings', () => {
    const run = RunSchema.parse({ id: 'r1', status: 'paused_for_lunch', thread_id: 't1', previous_run_id: 'r0' });
    expect(run.status).toBe('paused_for_lunch');
    expect(run).toMatchObject({ previous_run_id: 'r0' });
  });

  it('parses output with tool results and fills absent lists', () => {
    const run = RunSchema.parse({
      id: 'r1',
      status: 'completed',
      thread_id: 't1',
      output: {
        text: '# Answer',
        tool_results: [
          {
            type: 'tool_result',
            call_id: 'c1',
            tool: 'fold_protein',
            status: 'succeeded',
            input: { seq: 'MK' },
            output: { ok: true, residues: 2, structureId: 'f1', newField: 1 },
            files: [{ id: 'f1', role: 'structureId', url: 'https://h/api/v1/files/f1', name: 'x.pdb', size: 10 }],
          },
          { tool: 'search', status: 'succeeded', files: null },
        ],
      },
      created_at: '2026-01-01T00:00:00Z',
    });
    const [first, second] = run.output?.tool_results ?? [];
    expect(first?.files[0]).toMatchObject({ id: 'f1', role: 'structureId', name: 'x.pdb', size: 10 });
    expect(first?.output).toMatchObject({ newField: 1 });
    expect(second?.files).toEqual([]);
    expect(second?.input).toEqual({});
  });

  it('parses required_action and accepts null for it', () => {
    const paused = RunSchema.parse({
      id: 'r1',
      status: 'requires_action',
      thread_id: 't1',
      required_action: { tool: 'ask_choice', input: { question: 'q', options: [{ id: 'a' }] } },
    });
    expect(paused.required_action?.tool).toBe('ask_choice');
    expect(RunSchema.parse({ id: 'r', status: 'running', thread_id: 't', required_action: null }).required_action).toBeNull();
  });

  it('refuses a run without id, status or thread_id', () => {
    expect(RunSchema.safeParse({ id: 'r', status: 'running' }).success).toBe(false);
    expect(RunSchema.safeParse({ status: 'running', thread_id: 't' }).success).toBe(false);
    expect(RunSchema.safeParse({ id: 'r', status: 3, thread_id: 't' }).success).toBe(false);
  });
});

describe('ToolResultSchema and FileRefSchema', () => {
  it('require tool and status, url and id', () => {
    expect(ToolResultSchema.safeParse({ tool: 't' }).success).toBe(false);
    expect(FileRefSchema.safeParse({ id: 'f', role: 'r' }).success).toBe(false);
  });

  it('leave a missing file name absent so callers fall back to the id', () => {
    const ref = FileRefSchema.parse({ id: 'f', role: 'figure', url: 'u' });
    expect(ref.name ?? ref.id).toBe('f');
  });
});

describe('RunSchema service times', () => {
  const base = { id: 'r1', status: 'completed', thread_id: 't1' };

  it('keeps created_at, finished_at, completed_at and updated_at when each is an ISO date-time with a zone', () => {
    const run = RunSchema.parse({ ...base, created_at: '2026-11-28T06:00:00.000Z', finished_at: '2026-11-28T06:00:01.500Z', completed_at: '2026-11-28T07:00:01+01:00', updated_at: '2026-11-28T06:00:01.5Z' });
    expect(run).toMatchObject({ created_at: '2026-11-28T06:00:00.000Z', finished_at: '2026-11-28T06:00:01.500Z', completed_at: '2026-11-28T07:00:01+01:00', updated_at: '2026-11-28T06:00:01.5Z' });
  });

  it('reads a time that is absent, not a string, unparseable, without a zone or absurd as absent (resq measures itself)', () => {
    for (const bad of [undefined, null, 12345, 'yesterday', '2026-11-28', '2026-11-28T06:00:00', '2026-13-45T06:00:00Z', '1970-01-01T00:00:00Z', '9999-01-01T00:00:00Z', `2026-11-28T06:00:00Z${' '.repeat(50)}`]) {
      const run = RunSchema.parse({ ...base, created_at: bad, finished_at: bad, updated_at: bad });
      expect([run.created_at, run.finished_at, run.updated_at]).toEqual([null, null, null]);
    }
  });

  it('isSaneServiceTime says which strings are taken as service times', () => {
    expect(isSaneServiceTime('2026-11-28T06:00:00Z')).toBe(true);
    expect(isSaneServiceTime('2026-11-28T06:00:00.123456+05:30')).toBe(true);
    expect(isSaneServiceTime('2300-01-01T00:00:00Z')).toBe(false);
    expect(isSaneServiceTime(new Date())).toBe(false);
  });
});
