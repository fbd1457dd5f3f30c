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
    expect(text).toContain('pid 7 on h\\x1b: 2 items claimed, heartbeat 1.5 s ago');
    expect(text).toContain('see one: resq show');
  });

  it('says 1 item, not 1 items', () => {
    const text = formatStatus(status({ batch: 'one', total: 1, counts: { ...counts, held: 0 }, held: [] }), { db: 'x.db' });
    expect(text.split('\n')[0]).toBe('batch one: 1 item — 1 completed');
    expect(formatStatus(status({ batch: 'two' }), { db: 'x.db' }).split('\n')[0]).toMatch(/^batch two: 2 items — /);
  });

  it('fits every held-item line in an 80-column terminal, long ids, options and questions cut', () => {
    const held = [
      { id: 'a-rather-long-item-identifier-from-a-spreadsheet-0001', question: 'Why '.repeat(60), tool: 'ask_choice', input: { options: [{ id: 'first-option' }, { id: 'second-option' }, { id: 'third' }] }, reason: null },
      { id: 'x'.repeat(120), question: 'short', tool: 'confirm_scope', input: { cost: 12 }, reason: null },
      { id: 'booking', question: 'Book two hours on the cryo-EM microscope and tell me what you would image first, in detail', tool: 'book_instrument', input: {}, reason: null },
    ];
    const text = formatStatus(status({ held }), { db: 'x.db' });
    const lines = text.split('\n');
    const itemLines = lines.slice(lines.indexOf('held for a person: 3') + 1, lines.indexOf('held for a person: 3') + 4);
    expect(itemLines).toHaveLength(3);
    for (const l of itemLines) expect(l.length).toBeLessThanOrEqual(79);
    expect(itemLines[0]).toMatch(/^  a-rather-long-item-identifier-from-a-spreadsheet-0001: ask_choice options f/);
    expect(itemLines[2]).toMatch(/^  booking: book_instrument — "Book two hours on the cryo-EM microscope and t.*…"$/);
    expect(text).toContain('  see one: resq show b');
  });
});
