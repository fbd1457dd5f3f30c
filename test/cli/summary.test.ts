import { describe, expect, it } from 'vitest';
import { formatStatus } from '../../src/cli/summary.js';
import type { BatchStatus } from '../../src/read/index.js';

const counts = { queued: 0, submitting: 0, running: 0, waiting: 0, held: 1, completed: 1, failed: 0, error: 0, cancelled: 0 };

function held(h: Pick<BatchStatus['heldItems'][number], 'id' | 'question' | 'tool' | 'input'>): BatchStatus['heldItems'][number] {
  return { runId: null, holdReason: null, updatedAt: '2026-01-01T00:00:00.000Z', decisions: [], untrustedCost: null, ...h };
}

function worker(w: Pick<BatchStatus['workers'][number], 'id' | 'host' | 'pid' | 'gone' | 'heartbeatAgeMs' | 'items'>): BatchStatus['workers'][number] {
  return { startedAt: '2026-01-01T00:00:00.000Z', heartbeatAt: 0, ...w };
}

function status(over: Partial<BatchStatus> = {}): BatchStatus {
  return {
    name: 'b\u001b]0;owned\u0007', id: 'x', kind: 'runs', createdAt: '2026-01-01T00:00:00.000Z', cancelledAt: null, total: 2, counts, held: 1,
    concurrency: 4, inFlight: 0, capLimit: null, liveWorkers: 1, unfinished: 0, ratePerS: null, etaS: 0, etaLeavesOut: 0, waiting: [], next: null, notify: null,
    heldItems: [held({ id: 'i\u001b[31m', question: 'Q\u009b1m with\nbreak', tool: 'ask_choice', input: { options: [{ id: 'a\u0007' }] } })],
    unknownSubmission: ['u\u001b'], approvedCost: 0, files: { pending: 0, downloaded: 0, failed: 0, expired: 0, missing: 0 }, invalidRows: 0, skipped: [],
    workers: [worker({ id: 'w', host: 'h\u001b', pid: 7, gone: false, heartbeatAgeMs: 1500, items: 2 })],
    failed: [],
    failedTotal: 0,
    budget: null,
    budgetSpent: over.approvedCost ?? 0,
    scores: [],
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
    expect(text).toContain(`see the first: resq show "$(printf 'b\\033]0;owned\\007')" "$(printf 'i\\033[31m')" --db x.db`);
  });

  it('a worker of this host whose process ended is listed gone, with no heartbeat age, and not counted live', () => {
    const workers = [
      worker({ id: 'a', host: 'h', pid: 7, gone: false, heartbeatAgeMs: 1500, items: 2 }),
      worker({ id: 'b', host: 'h', pid: 8, gone: true, heartbeatAgeMs: 7100, items: 3 }),
    ];
    const text = formatStatus(status({ workers }), { db: 'x.db' });
    expect(text).toContain('workers: 1 live, 1 gone\n');
    expect(text).toContain('  pid 7 on h: 2 items claimed, heartbeat 1.5 s ago');
    expect(text).toContain('  pid 8 on h: gone (its process ended), 3 items claimed, free for the other workers to take');
    expect(text).not.toContain('7.1 s ago');
  });

  it('says 1 item, not 1 items', () => {
    const text = formatStatus(status({ name: 'one', total: 1, counts: { ...counts, held: 0 }, held: 0, heldItems: [] }), { db: 'x.db' });
    expect(text.split('\n')[0]).toBe('batch one: 1 item — 1 completed');
    expect(formatStatus(status({ name: 'two' }), { db: 'x.db' }).split('\n')[0]).toMatch(/^batch two: 2 items — /);
  });

  it('fits every held-item line in an 80-column terminal, long ids, options and questions cut', () => {
    const heldItems = [
      held({ id: 'a-rather-long-item-identifier-from-a-spreadsheet-0001', question: 'Why '.repeat(60), tool: 'ask_choice', input: { options: [{ id: 'first-option' }, { id: 'second-option' }, { id: 'third' }] } }),
      held({ id: 'x'.repeat(120), question: 'short', tool: 'confirm_scope', input: { cost: 12 } }),
      held({ id: 'booking', question: 'Book two hours on the cryo-EM microscope and tell me what you would image first, in detail', tool: 'book_instrument', input: {} }),
    ];
    const text = formatStatus(status({ held: 3, heldItems }), { db: 'x.db' });
    const lines = text.split('\n');
    const itemLines = lines.slice(lines.indexOf('held for a person: 3') + 1, lines.indexOf('held for a person: 3') + 4);
    expect(itemLines).toHaveLength(3);
    for (const l of itemLines) expect(l.length).toBeLessThanOrEqual(79);
    expect(itemLines[0]).toMatch(/^  a-rather-long-item-identifier-from-a-spreadsheet-0001: ask_choice options f/);
    expect(itemLines[2]).toMatch(/^  booking: book_instrument — "Book two hours on the cryo-EM microscope and t.*…"$/);
    expect(text).toContain(`  see the first: resq show "$(printf 'b\\033]0;owned\\007')" a-rather-long-item-identifier-from-a-spreadsheet-0001 --db x.db`);
    expect(text).toContain(`  answer (or another --choose ID[,ID], or --decline): resq answer "$(printf 'b\\033]0;owned\\007')" a-rather-long-item-identifier-from-a-spreadsheet-0001 --choose first-option --db x.db`);
  });

  it('names failed and errored items with the service\'s code and message, escaped, each line within 80 columns', () => {
    const failed: BatchStatus['failed'] = [
      { id: 'x3', question: 'q', status: 'failed', errorCode: 'agent_error', error: 'simulated failure (@fail)' },
      { id: 'e\u001b[2J', question: 'q', status: 'error', errorCode: null, error: `HTTP 400 POST /runs: ${'very long reason '.repeat(10)}\u0007` },
      { id: 'bare', question: 'q', status: 'failed', errorCode: null, error: null },
    ];
    const text = formatStatus(status({ failed, failedTotal: 3, counts: { ...counts, failed: 2, error: 1 } }), { db: 'x.db' });
    expect(text).toContain('failed or errored: 3');
    expect(text).toContain('  x3 (failed): agent_error: simulated failure (@fail)');
    expect(text).toContain('  e\\x1b[2J (error): HTTP 400 POST /runs: very long');
    expect(text).toContain('  bare (failed): no reason given');
    expect(text).toContain(`  see the first: resq show "$(printf 'b\\033]0;owned\\007')" x3 --db x.db`);
    expect(text).not.toContain('more; all of them');
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    for (const line of text.split('\n').filter((l) => l.includes('(failed)') || l.includes('(error)'))) expect(line.length).toBeLessThanOrEqual(79);
  });

  it('says how many more failed than it lists, and the command that lists them all', () => {
    const failed = Array.from({ length: 10 }, (_, i) => ({ id: `f${i}`, question: 'q', status: 'failed' as const, errorCode: 'agent_error', error: 'boom' }));
    const text = formatStatus(status({ failed, failedTotal: 1234 }), { db: 'x.db' });
    expect(text).toContain('failed or errored: 1234');
    expect(text).toContain(`  … and 1224 more; all of them: resq export "$(printf 'b\\033]0;owned\\007')" --failed --db x.db`);
  });

  it('names who decided a held item\'s earlier pauses and their note', () => {
    const decisions = [{ tool: 'confirm_scope', by: 'person' as const, person: 'Ana', reason: null, note: 'fine by me', decidedAt: '2026-01-01T00:00:00.000Z', answer: { approved: true }, words: 'approved', cost: 6, overBudget: false }];
    const text = formatStatus(status({ heldItems: [{ ...held({ id: 'q1', question: 'q', tool: 'ask_choice', input: {} }), decisions }] }), { db: 'x.db' });
    expect(text).toContain('    earlier confirm_scope: approved by Ana — note: fine by me');
  });

  it('no ETA while no worker runs the batch: says so and names the command that goes on', () => {
    const text = formatStatus(status({ ratePerS: 7.5234, etaS: null, unfinished: 800, liveWorkers: 0, workers: [], next: { why: 'no-worker', text: 'no worker running: resq resume b --db x.db', command: 'resq resume b --db x.db' } }), { db: 'x.db' });
    expect(text.split('\n')[1]).toBe('rate 7.52 items/s, no ETA: no worker running: resq resume b --db x.db');
    expect(formatStatus(status({ ratePerS: 2, etaS: 400, unfinished: 800 }), { db: 'x.db' }).split('\n')[1]).toBe('rate 2.00 items/s, ETA 400 s');
  });

  it('says the cost approved against the batch budget when the policy sets one', () => {
    expect(formatStatus(status({ approvedCost: 30, budget: 120 }), { db: 'x.db' })).toContain('cost approved: 30 of the batch budget 120 (25%)');
    expect(formatStatus(status({ approvedCost: 30 }), { db: 'x.db' })).toContain('cost approved: 30\n');
  });

  it("counts what the batch's agent judge approved against the budget they share, and says its part", () => {
    const text = formatStatus(status({ approvedCost: 10, budgetSpent: 16, budget: 20 }), { db: 'x.db' });
    expect(text).toContain('cost approved: 16 of the batch budget 20 (80%), 6 of it by its agent judge\n');
  });
});
