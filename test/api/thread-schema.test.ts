import { describe, expect, it } from 'vitest';
import { ThreadListSchema, ThreadSchema } from '../../src/api/thread-schema.js';

describe('thread schemas', () => {
  it('parses a thread list and keeps unknown fields', () => {
    const list = ThreadListSchema.parse({
      object: 'list',
      has_more: false,
      data: [{ object: 'thread', id: 't1', title: 'Q', updated_at: '2026-01-01T00:00:00Z', message_count: 3 }],
    });
    expect(list.data[0]).toMatchObject({ id: 't1', message_count: 3 });
    expect(list).toMatchObject({ has_more: false });
  });

  it('parses a thread read with messages and their tool results', () => {
    const thread = ThreadSchema.parse({
      id: 't1',
      title: 'Q',
      updated_at: '2026-01-01T00:00:00Z',
      latest_run_id: null,
      messages: [
        { id: 'm1', role: 'user', text: 'Q', tool_results: [] },
        { id: 'm2', role: 'assistant', text: 'A', tool_results: [{ tool: 't', status: 'succeeded', files: [] }] },
      ],
    });
    expect(thread.latest_run_id).toBeNull();
    expect(thread.messages[1]?.tool_results[0]?.tool).toBe('t');
  });

  it('refuses a list without data', () => {
    expect(ThreadListSchema.safeParse({ object: 'list' }).success).toBe(false);
  });
});
