import { describe, expect, it } from 'vitest';
import { formatStatus } from '../../src/cli/summary.js';
import type { BatchStatus } from '../../src/runner/index.js';

const counts = { queued: 0, submitting: 0, running: 0, waiting: 0, held: 1, completed: 1, failed: 0, error: 0, cancelled: 0 };

function status(over: Partial<BatchStatus> = {}): BatchStatus {
  return {
    batch: 'b\u001b]0;owned\u0007', batchId: 'x', total: 2, counts, rate: null, etaSeconds: null,
    held: [{ id: 'i\u001b[31m', question: 'Q\u009b1m with\nbreak', tool: 'ask_choice', input: { options: [{ id: 'a\u0007' }] }, reason: null }],
    unknownSubmission: ['u\u001b'], approvedCost: 0, files: { pending: 0, downloaded: 0, failed: 0, expired: 0, missing: 0 }, invalidRows: 0, skipped: [],
    workers: [{ id: 'w', host: 'h\u001b', pid: 7, heartbeatAgeMs: 1500, items: 2 }],
    ...over,
  };
}

describe('formatStatus', () => {
  it('prints no raw control character from ids, questions, options or host names', () => {
    const text = formatStatus(status(), { db: 'x.db' });
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(text).toContain('i\\x1b[31m: ask_choice options a\\x07');
    expect(text).toContain('"Q\\x9b1m with break"');
  });

  it('lists the rows --skip-invalid left out, and says how to export them all', () => {
    const skipped = Array.from({ length: 12 }, (_, i) => `q.csv:${i + 2}: question: empty`);
    const text = formatStatus(status({ invalidRows: 12, skipped }), { db: 'x.db' });
    expect(text).toContain('rows skipped as invalid (--skip-invalid): 12');
    expect(text).toContain('  q.csv:2: question: empty');
    expect(text).not.toContain('q.csv:13:');
    expect(text).toContain('--invalid --db x.db');
  });

  it('lists live workers with their items and heartbeat age, and names resq show for held items', () => {
    const text = formatStatus(status(), { db: 'x.db' });
    expect(text).toContain('workers: 1 live');
    expect(text).toContain('pid 7 on h\\x1b: 2 items held, heartbeat 1.5 s ago');
    expect(text).toContain('see one with resq show');
  });
});
