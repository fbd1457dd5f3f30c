import { describe, expect, it } from 'vitest';
import {
  isFinalRunEvent,
  isTextDeltaEvent,
  isToolResultEvent,
  parseEventId,
  runOfEvent,
  toRunEvent,
  type RunEvent,
} from '../../src/api/run-events.js';

describe('toRunEvent', () => {
  it('parses integer ids and JSON data', () => {
    expect(toRunEvent({ id: '12', event: 'text.delta', data: '{"text":"a"}' })).toEqual({
      id: 12,
      event: 'text.delta',
      data: { text: 'a' },
    });
  });

  it('keeps data that is not JSON as the raw string', () => {
    expect(toRunEvent({ id: null, event: 'x', data: 'not json' }).data).toBe('not json');
  });
});

describe('parseEventId', () => {
  it.each([
    ['5', 5],
    ['-1', -1],
    [' 7 ', 7],
    ['', null],
    ['abc', null],
    ['1.5', null],
    [null, null],
    ['99999999999999999999', null],
  ])('parses %j as %j', (raw, expected) => {
    expect(parseEventId(raw)).toBe(expected);
  });
});

describe('event narrowing', () => {
  const delta: RunEvent = { id: 1, event: 'text.delta', data: { text: 'hi' } };
  const tool: RunEvent = { id: 2, event: 'tool.result', data: { tool: 'fold_protein', status: 'succeeded' } };
  const run: RunEvent = { id: 3, event: 'run', data: { id: 'r1', status: 'completed', thread_id: 't1' } };

  it('recognises text.delta only with a string text', () => {
    expect(isTextDeltaEvent(delta)).toBe(true);
    expect(isTextDeltaEvent({ ...delta, data: { text: 3 } })).toBe(false);
    expect(isTextDeltaEvent(tool)).toBe(false);
  });

  it('recognises tool.result only with tool and status strings', () => {
    expect(isToolResultEvent(tool)).toBe(true);
    expect(isToolResultEvent({ ...tool, data: { tool: 'x' } })).toBe(false);
  });

  it('parses the run of a run event and refuses a malformed one', () => {
    expect(runOfEvent(run)).toMatchObject({ id: 'r1', status: 'completed', thread_id: 't1' });
    expect(runOfEvent({ ...run, data: { id: 'r1' } })).toBeNull();
    expect(runOfEvent(delta)).toBeNull();
  });

  it('treats a run event as final only when its status is finished', () => {
    expect(isFinalRunEvent(run)).toBe(true);
    expect(isFinalRunEvent({ ...run, data: { status: 'requires_action' } })).toBe(true);
    expect(isFinalRunEvent({ ...run, data: { status: 'running' } })).toBe(false);
    expect(isFinalRunEvent({ ...run, data: { status: 'cancelling' } })).toBe(false);
    expect(isFinalRunEvent({ ...delta, data: { status: 'completed' } })).toBe(false);
  });
});
