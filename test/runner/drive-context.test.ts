import { describe, expect, it } from 'vitest';
import { ItemDriveContext, type DriveShared } from '../../src/runner/drive-context.js';
import type { RunnerEvent } from '../../src/runner/events.js';
import type { StepContext } from '../../src/runner/scheduler-options.js';

describe('ItemDriveContext', () => {
  it('reads the runner\'s shared parts and the step\'s slot, and passes emit, admitted, release and the reads again on', () => {
    const events: RunnerEvent[] = [];
    const shared = { store: {}, client: {}, batch: { id: 'b' }, policy: null, follow: 'sse', emit: (e: RunnerEvent) => void events.push(e) } as unknown as DriveShared;
    const calls: string[] = [];
    const signal = new AbortController().signal;
    const step: StepContext = { signal, fresh: false, admitted: () => void calls.push('admitted'), release: () => void calls.push('release'), rereading: () => void calls.push('rereading'), reread: () => void calls.push('reread') };
    const ctx = new ItemDriveContext(shared, step);
    expect(ctx.store).toBe(shared.store);
    expect(ctx.client).toBe(shared.client);
    expect(ctx.batch).toBe(shared.batch);
    expect(ctx.policy).toBeNull();
    expect(ctx.follow).toBe('sse');
    expect(ctx.signal).toBe(signal);
    ctx.admitted();
    ctx.release();
    ctx.rereading();
    ctx.reread();
    ctx.emit({ type: 'item', id: 'i', state: 'running', runId: 'r' });
    expect(calls).toEqual(['admitted', 'release', 'rereading', 'reread']);
    expect(events).toEqual([{ type: 'item', id: 'i', state: 'running', runId: 'r' }]);
  });
});
