import type { Message, ModelRunRecord, RunRecord, ThreadRecord } from './records.js';
import type { RunState } from './run-state.js';

/**
 * The run object exactly as GET /runs/{id} and the `run` event give it (`s`: its state now,
 * made afresh). `times`: with its start, end and last change (the simulator's clock).
 */
export function runView(r: RunRecord, s: RunState, times = true): Record<string, unknown> {
  const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
  const view: Record<string, unknown> = {
    id: r.id,
    object: 'run',
    status: r.status,
    thread_id: r.threadId,
    ...(times ? { created_at: iso(r.createdAt), completed_at: iso(r.completedAt), finished_at: iso(r.completedAt), updated_at: iso(r.completedAt ?? r.createdAt) } : {}),
    previous_run_id: r.parentId,
    output: { text: s.text, tool_results: s.toolResults },
  };
  if (s.requiredAction) view.required_action = s.requiredAction;
  if (s.error) view.error = s.error;
  return view;
}

/** A thread as an element of GET /threads. */
export function threadListItem(t: ThreadRecord, messageCount: number): Record<string, unknown> {
  return {
    object: 'thread',
    id: t.id,
    title: t.title,
    updated_at: new Date(t.updatedAt).toISOString(),
    message_count: messageCount,
  };
}

/** A thread as GET /threads/{id} gives it. */
export function threadView(t: ThreadRecord, messages: Message[]): Record<string, unknown> {
  return {
    object: 'thread',
    id: t.id,
    title: t.title,
    updated_at: new Date(t.updatedAt).toISOString(),
    latest_run_id: t.runIds.at(-1) ?? null,
    message_count: messages.length,
    messages,
  };
}

/** The model run object. */
export function modelRunView(m: ModelRunRecord): Record<string, unknown> {
  return {
    id: m.id,
    object: 'model_run',
    model: m.modelId,
    status: m.status,
    outputs: m.outputs === null ? null : structuredClone(m.outputs),
    error: m.error,
    credits: m.credits,
    poll_url: m.pollUrl,
    page_url: m.pageUrl,
    created_at: new Date(m.createdAt).toISOString(),
  };
}
