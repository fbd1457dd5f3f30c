import { derivedMessageId } from './ids.js';
import type { Message, RunRecord, ThreadRecord } from './records.js';
import type { RunState } from './run-state.js';

/** What the transcript needs: the thread's runs and the state of a finished one. */
export interface TranscriptSource {
  run(id: string): RunRecord | undefined;
  isFinished(run: RunRecord): boolean;
  state(run: RunRecord): RunState;
}

/**
 * A thread's transcript, worked out from its runs in order: a run made by POST /runs adds
 * the user's message (its input), a finished run the assistant's (its text and tool
 * results). A thread takes no new run while one is going, so this is the order they were said.
 */
export function threadMessages(t: ThreadRecord, src: TranscriptSource): Message[] {
  const messages: Message[] = [];
  for (const id of t.runIds) {
    const run = src.run(id);
    if (!run) continue;
    if (run.parentId === null) messages.push({ id: derivedMessageId(run.id, 'user'), role: 'user', text: run.chain.input, tool_results: [] });
    if (src.isFinished(run)) {
      const s = src.state(run);
      messages.push({ id: derivedMessageId(run.id, 'assistant'), role: 'assistant', text: s.text, tool_results: s.toolResults });
    }
  }
  return messages;
}

/** How many messages {@link threadMessages} gives, without building them. */
export function threadMessageCount(t: ThreadRecord, src: Pick<TranscriptSource, 'run' | 'isFinished'>): number {
  let n = 0;
  for (const id of t.runIds) {
    const run = src.run(id);
    if (!run) continue;
    if (run.parentId === null) n++;
    if (src.isFinished(run)) n++;
  }
  return n;
}
