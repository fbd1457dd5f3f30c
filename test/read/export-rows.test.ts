import { describe, expect, it } from 'vitest';
import { exportRow, runSeconds } from '../../src/read/export-rows.js';
import type { ItemAggregate } from '../../src/store/port.js';
import type { ItemRecord } from '../../src/store/types.js';

const item: ItemRecord = {
  batchId: 'b', id: 'a', seq: 0, line: 2, question: 'q?', threadKey: null, meta: { topic: 'x' }, expected: null, state: 'submitting', step: 1,
  pendingKey: null, pendingAnswer: null, runId: 'r2', threadId: 't', runStatus: 'running', text: null, error: null, errorCode: null,
  holdReason: null, startedAt: '2026-01-01T00:00:00.000Z', finishedAt: null, updatedAt: '', owner: null, leaseUntil: null, attempt: 0, fence: 0,
};

describe('export rows', () => {
  it('runSeconds adds up the runs that ended, to the millisecond; null before any ended', () => {
    expect(runSeconds([])).toBeNull();
    expect(runSeconds([{ createdAt: '2026-01-01T00:00:00.000Z', finishedAt: null, seconds: null }])).toBeNull();
    expect(
      runSeconds([
        { createdAt: '2026-01-01T00:00:00.000Z', finishedAt: '2026-01-01T00:00:01.250Z', seconds: 1.25 },
        // An hour held between the two runs is not counted.
        { createdAt: '2026-01-01T01:00:00.000Z', finishedAt: '2026-01-01T01:00:02.001Z', seconds: 2.001 },
        { createdAt: '2026-01-01T02:00:00.000Z', finishedAt: null, seconds: null },
      ]),
    ).toBe(3.251);
  });

  it('runSeconds is null when a run ended unwatched with no length known (it counts in no duration)', () => {
    expect(
      runSeconds([
        { createdAt: '2026-01-01T00:00:00.000Z', finishedAt: '2026-01-01T00:00:01.250Z', seconds: 1.25 },
        { createdAt: '2026-01-01T01:00:00.000Z', finishedAt: '2026-01-01T01:00:09.000Z', seconds: null },
      ]),
    ).toBeNull();
  });

  it('exportRow sums the decisions cost, takes the first run as created, reports submitting as running', () => {
    const a: ItemAggregate = {
      item,
      runIds: ['r1', 'r2'],
      runTimes: [
        { createdAt: '2026-01-01T00:00:01.000Z', finishedAt: '2026-01-01T00:00:02.000Z', seconds: 1 },
        { createdAt: '2026-01-01T00:00:05.000Z', finishedAt: null, seconds: null },
      ],
      decisions: [
        { tool: 'confirm_scope', input: {}, answer: { approved: true }, by: 'policy', person: null, reason: 'cheap', cost: 2.5 },
        { tool: 'ask_choice', input: {}, answer: { decision: 'declined' }, by: 'person', person: null, reason: null, cost: 0 },
      ],
      files: [],
    };
    expect(exportRow(a)).toMatchObject({
      status: 'running', cost: 2.5, duration_seconds: 1, created_at: '2026-01-01T00:00:01.000Z', finished_at: null,
      error: null, error_code: null, run_ids: ['r1', 'r2'],
    });
    expect(exportRow(a).decisions.map((d) => d.reason)).toEqual(['cheap', null]);
  });
});
