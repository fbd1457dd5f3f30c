import { describe, expect, it } from 'vitest';
import { isModelRunFinished, isRunFailure, isRunFinished, isRunWaiting } from '../../src/api/run-status.js';

describe('run status predicates', () => {
  it('counts every status but running and cancelling as finished', () => {
    expect(isRunFinished({ status: 'running' })).toBe(false);
    expect(isRunFinished({ status: 'cancelling' })).toBe(false);
    for (const s of ['requires_action', 'completed', 'failed', 'cancelled', 'some_new_status']) {
      expect(isRunFinished({ status: s })).toBe(true);
    }
  });

  it('names failures and leaves other finished statuses alone', () => {
    for (const s of ['failed', 'error', 'errored', 'cancelled', 'canceled', 'timed_out', 'FAILED']) {
      expect(isRunFailure(s)).toBe(true);
    }
    for (const s of ['completed', 'requires_action', 'succeeded', 'some_new_status', 'running']) {
      expect(isRunFailure(s)).toBe(false);
    }
  });

  it('recognises the pause', () => {
    expect(isRunWaiting({ status: 'requires_action' })).toBe(true);
    expect(isRunWaiting({ status: 'completed' })).toBe(false);
  });

  it('keeps model runs going while running or queued', () => {
    expect(isModelRunFinished({ status: 'running' })).toBe(false);
    expect(isModelRunFinished({ status: 'queued' })).toBe(false);
    for (const s of ['succeeded', 'failed', 'cancelled']) expect(isModelRunFinished({ status: s })).toBe(true);
  });
});
