import { describe, expect, it } from 'vitest';
import { fileRefs, runError, serviceSeconds, toSnapshot } from '../../src/runner/run-snapshot.js';

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
  it("keeps a failed run's error code and message verbatim", () => {
    const s = toSnapshot({ id: 'r', status: 'failed', error: { code: 'agent_error', message: 'simulated failure\u001b[31m', detail: 1 } });
    expect(s.error).toEqual({ code: 'agent_error', message: 'simulated failure\u001b[31m' });
    expect(toSnapshot({ id: 'r', status: 'completed' }).error).toBeNull();
  });
  it('takes a bare string as the message, a code alone as both, any other shape as its JSON text', () => {
    expect(runError({ id: 'r', status: 'failed', error: 'out of credits' })).toEqual({ code: null, message: 'out of credits' });
    expect(runError({ id: 'r', status: 'failed', error: { code: 'quota' } })).toEqual({ code: 'quota', message: 'quota' });
    expect(runError({ id: 'r', status: 'failed', error: { reason: 'x' } })).toEqual({ code: null, message: '{"reason":"x"}' });
    expect(runError({ id: 'r', status: 'failed', error: 42 })).toEqual({ code: null, message: '42' });
    expect(runError({ id: 'r', status: 'failed', error: null })).toBeNull();
  });
  it('measures an ended run by the service clock: created_at to finished_at, else completed_at, else updated_at', () => {
    const t = (s: number): string => new Date(Date.UTC(2026, 10, 28, 6, 0, 0) + s * 1000).toISOString();
    expect(serviceSeconds({ id: 'r', status: 'completed', created_at: t(0), finished_at: t(1.5), updated_at: t(9) })).toBe(1.5);
    expect(serviceSeconds({ id: 'r', status: 'completed', created_at: t(0), completed_at: t(2.25) })).toBe(2.25);
    expect(serviceSeconds({ id: 'r', status: 'requires_action', created_at: t(0), updated_at: t(3) })).toBe(3);
    // Missing, an end before the start, or a year long: resq measures itself.
    expect(serviceSeconds({ id: 'r', status: 'completed', finished_at: t(1) })).toBeNull();
    expect(serviceSeconds({ id: 'r', status: 'completed', created_at: t(5), finished_at: t(1) })).toBeNull();
    expect(serviceSeconds({ id: 'r', status: 'completed', created_at: t(0), finished_at: t(400 * 86_400) })).toBeNull();
    expect(toSnapshot({ id: 'r', status: 'completed', created_at: t(0), finished_at: t(1.5) }, true)).toMatchObject({ serviceSeconds: 1.5, unwatched: true });
    expect(toSnapshot({ id: 'r', status: 'running', created_at: t(0), updated_at: t(1) })).toMatchObject({ serviceSeconds: null, unwatched: false });
  });
});
