import { describe, expect, it } from 'vitest';
import { MemorySink } from '../../src/cli/io.js';
import { modelProgress } from '../../src/cli/models-progress.js';
import { barRenderer, plainRenderer } from '../../src/cli/progress.js';
import type { StateCounts } from '../../src/runner/index.js';

const zero: StateCounts = { queued: 0, submitting: 0, running: 0, waiting: 0, held: 0, completed: 0, failed: 0, error: 0, cancelled: 0 };
const others = [{ id: 'w2', host: 'hostb', pid: 42 }];

/** What a terminal shows of `raw`: each line as last drawn, cursor codes and line clears gone. */
function screen(raw: string): string[] {
  return raw
    .replace(/\x1b\[\?25[lh]/g, '')
    .split('\n')
    .map((l) => l.split('\r').at(-1)!.replace(/\x1b\[K/g, ''))
    .filter(Boolean);
}

describe('barRenderer', () => {
  it('a resume says, above the bar, how many items were finished and how many runs it re-attached', () => {
    const out = new MemorySink();
    const r = barRenderer(out, 80);
    r.onEvent({ type: 'start', batch: 'b', batchId: 'x', total: 10, counts: { ...zero, completed: 4, running: 3, queued: 3 }, resumed: 3 });
    r.stop();
    const lines = screen(out.text);
    expect(lines[0]).toBe('batch b: 10 items, 4 already finished, 3 re-attached');
    expect(lines[1]).toMatch(/^\[#+-+\] 4\/10 \| in flight 3 \| /);
  });

  it('a fresh run starts with the bar alone', () => {
    const out = new MemorySink();
    const r = barRenderer(out, 80);
    r.onEvent({ type: 'start', batch: 'b', batchId: 'x', total: 1, counts: { ...zero, queued: 1 }, resumed: 0 });
    r.stop();
    expect(screen(out.text)).toEqual([expect.stringMatching(/^\[-+\] 0\/1 \| in flight 0 \| /)]);
  });

  it('joining a batch is a notice above the bar as it happens, not a warning after it', () => {
    const out = new MemorySink();
    const r = barRenderer(out, 80);
    r.onEvent({ type: 'start', batch: 'b', batchId: 'x', total: 10, counts: { ...zero, queued: 10 }, resumed: 0 });
    r.onEvent({ type: 'joined', workerId: 'w1', others });
    const before = screen(out.text);
    r.onEvent({ type: 'warning', message: 'something odd' });
    r.stop();
    expect(before[0]).toBe('notice: joining batch b: 1 other worker (pid 42 on host hostb)');
    const lines = screen(out.text);
    expect(lines.filter((l) => l.includes('joining'))).toHaveLength(1);
    expect(lines.at(-1)).toBe('warning: something odd');
  });

  it('judgings keep pace silently while answers run; those left once the answers end get a bar of their own, said above it', () => {
    const out = new MemorySink();
    const r = barRenderer(out, 100);
    r.onEvent({ type: 'start', batch: 'b', batchId: 'x', total: 4, counts: { ...zero, queued: 4 }, resumed: 0 });
    r.onEvent({ type: 'judging', batch: 'b.judge', done: 1, total: 2 });
    r.onEvent({ type: 'end', counts: { ...zero, completed: 4 }, interrupted: false, stalled: 0, fatal: null });
    r.onEvent({ type: 'judging', batch: 'b\u001b[2J.judge', done: 2, total: 4 });
    r.onEvent({ type: 'judging', batch: 'b.judge', done: 4, total: 4 });
    r.stop();
    const lines = screen(out.text);
    expect(lines[0]).toMatch(/^\[#+\] 4\/4 \| in flight 0 \| /);
    // The batch's name comes from the user: its control characters are shown escaped.
    expect(lines[1]).toBe('judging with the agent: 2 of 4 judgings to go (batch b\\x1b[2J.judge)');
    expect(lines[2]).toMatch(/^\[#+\] 4\/4 \| judgings \| /);
    expect(lines).toHaveLength(3);
  });

  it('plain output says the judgings left once, and nothing per judging', () => {
    const out = new MemorySink();
    const r = plainRenderer(out);
    r.onEvent({ type: 'judging', batch: 'b.judge', done: 0, total: 3 });
    r.onEvent({ type: 'end', counts: { ...zero, completed: 3 }, interrupted: false, stalled: 0, fatal: null });
    r.onEvent({ type: 'judging', batch: 'b.judge', done: 1, total: 3 });
    r.onEvent({ type: 'judging', batch: 'b.judge', done: 2, total: 3 });
    expect(out.text).toBe('judging with the agent: 2 of 3 judgings to go (batch b.judge)\n');
  });

  it('after a stop the bar counts the runs still in flight, as the summary does', () => {
    const out = new MemorySink();
    const r = barRenderer(out, 80);
    r.onEvent({ type: 'start', batch: 'b', batchId: 'x', total: 10, counts: { ...zero, queued: 10 }, resumed: 0 });
    r.onEvent({ type: 'progress', counts: { ...zero, queued: 5, running: 5 }, inFlight: 5, cap: 5, total: 10, ratePerS: null, etaS: null, etaLeavesOut: 0 });
    const end = { ...zero, queued: 5, submitting: 1, running: 3, waiting: 1 };
    r.onEvent({ type: 'end', counts: end, interrupted: true, stalled: 0, fatal: null });
    r.stop();
    expect(screen(out.text).at(-1)).toMatch(/ 0\/10 \| in flight 5 \| held 0 \| failed 0 /);
  });
});

describe('the bar\'s rate and ETA', () => {
  it('are the batch\'s, as the library reads them for resq status and the page, not this session\'s own count', () => {
    const out = new MemorySink();
    const r = barRenderer(out, 100);
    r.onEvent({ type: 'start', batch: 'b', batchId: 'x', total: 100, counts: { ...zero, queued: 60, completed: 40 }, resumed: 0 });
    // This session finished nothing yet: its own count would say 0.0/s and no ETA.
    r.onEvent({ type: 'progress', counts: { ...zero, queued: 60, completed: 40 }, inFlight: 4, cap: 4, total: 100, ratePerS: 2.5, etaS: 24, etaLeavesOut: 0 });
    r.stop();
    expect(screen(out.text).at(-1)).toMatch(/ 40\/100 \| in flight 4 \| held 0 \| failed 0 \| 2\.5\/s \| ETA 24s$/);
  });
});

describe('plainRenderer', () => {
  it('says what the batch starts from, and other workers as notices', () => {
    const out = new MemorySink();
    const r = plainRenderer(out);
    r.onEvent({ type: 'start', batch: 'b', batchId: 'x', total: 1, counts: { ...zero, running: 1 }, resumed: 1 });
    r.onEvent({ type: 'joined', workerId: 'w1', others });
    expect(out.text).toBe('batch b: 1 item, 0 already finished, 1 re-attached\nnotice: joining batch b: 1 other worker (pid 42 on host hostb)\n');
  });
});

describe('one renderer for model batches', () => {
  it('draws a model batch with the same bar: its start line above, its file problems and warnings below', () => {
    const out = new MemorySink();
    const r = barRenderer(out, 100, modelProgress());
    r.onEvent({ type: 'start', batch: 'm', batchId: 'x', model: 'fold', total: 4, counts: { ...zero, queued: 4 }, resumed: 0, unknown: 0, resubmitUnknown: false });
    r.onEvent({ type: 'file-problem', batchId: 'x', batch: 'm', itemId: 'r1', fileId: 'f1', status: 'missing', reason: 'gone' });
    r.onEvent({ type: 'progress', counts: { ...zero, completed: 3, cancelled: 1 }, inFlight: 0, total: 4, credits: 12 });
    r.onEvent({ type: 'warning', message: 'odd' });
    r.stop();
    const lines = screen(out.text);
    expect(lines[0]).toBe('batch m (model fold): 4 rows, 0 already finished, 0 re-attached');
    expect(lines[1]).toMatch(/^\[#+\] 4\/4 \| in flight 0 \| failed 0 \| credits 12/);
    expect(lines.slice(2)).toEqual(['file f1 of row r1: missing: gone', 'warning: odd']);
  });

  it('says cap moves in plain output for agent and model batches alike', () => {
    const agent = new MemorySink();
    plainRenderer(agent).onEvent({ type: 'cap', cap: 4, reason: 'HTTP 429' });
    const model = new MemorySink();
    plainRenderer(model, modelProgress()).onEvent({ type: 'cap', cap: 4, reason: 'HTTP 429' });
    expect(agent.text).toBe('in-flight cap now 4 (HTTP 429)\n');
    expect(model.text).toBe(agent.text);
  });
});
