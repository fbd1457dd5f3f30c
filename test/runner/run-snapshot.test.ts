import { describe, expect, it } from 'vitest';
import { fileRefs, toSnapshot } from '../../src/runner/run-snapshot.js';

describe('run snapshots', () => {
  const run = {
    id: 'r1',
    status: 'completed',
    thread_id: 't1',
    created_at: '2026-01-01T00:00:00Z',
    extra: 'kept by the schema, ignored here',
    output: {
      text: 'done',
      tool_results: [
        { type: 'tool_result', tool: 'fold_protein', files: [{ id: 'f1', url: 'u1', role: 'structureId', name: 'a.pdb' }] },
        { type: 'tool_result', tool: 'make_figure', files: [{ id: 'f2', url: 'u2', role: 'figure' }, { bogus: true }] },
        'not an object',
        { type: 'tool_result', tool: 'x' },
      ],
    },
  };
  it('finds every file reference with the tool that made it, skipping malformed ones', () => {
    expect(fileRefs(run)).toEqual([
      { id: 'f1', url: 'u1', role: 'structureId', name: 'a.pdb', tool: 'fold_protein' },
      { id: 'f2', url: 'u2', role: 'figure', name: null, tool: 'make_figure' },
    ]);
  });
  it('reduces a run to what the store keeps', () => {
    const s = toSnapshot({ ...run, status: 'requires_action', required_action: { tool: 'ask_choice', input: { options: [] } } });
    expect(s).toMatchObject({ id: 'r1', threadId: 't1', createdAt: '2026-01-01T00:00:00Z', requiredAction: { tool: 'ask_choice' } });
    expect(s.files).toHaveLength(2);
  });
  it('copes with a run with no output', () => {
    expect(toSnapshot({ id: 'r', status: 'running' })).toMatchObject({ output: null, files: [], requiredAction: null });
  });
});
