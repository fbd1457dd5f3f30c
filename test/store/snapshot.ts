import type { RunSnapshot } from '../../src/store/shapes.js';

/** A run as the service hands it back, completed unless `over` says otherwise (the store contracts' fixture). */
export function snap(id: string, over: Partial<RunSnapshot> = {}): RunSnapshot {
  return {
    id,
    status: 'completed',
    threadId: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    requiredAction: null,
    output: { text: `answer of ${id}`, tool_results: [] },
    files: [],
    ...over,
  };
}
