import type { DecisionRecord } from '../store/types.js';
import type { Decider } from './status-schema.js';

/** A decision in words: "approved", "declined", "chose a, b" (else its JSON). */
export function decisionWords(answer: Record<string, unknown>): string {
  if (answer.approved === true) return 'approved';
  if (answer.approved === false || answer.decision === 'declined') return 'declined';
  if (answer.decision === 'chosen' && Array.isArray(answer.chosen)) return `chose ${answer.chosen.map(String).join(', ')}`;
  return JSON.stringify(answer);
}

/**
 * Who decided a pause and with what note. A person's note is stored as the decision's reason;
 * a policy's reason is its rule, and its note (an ask_choice rule's `note`) rides in the answer.
 */
export function deciderOf(d: Pick<DecisionRecord, 'tool' | 'answer' | 'by' | 'person' | 'reason' | 'cost' | 'decidedAt'>): Decider {
  const answerNote = typeof d.answer.note === 'string' ? d.answer.note : null;
  return {
    tool: d.tool,
    by: d.by,
    person: d.by === 'person' ? (d.person ?? null) : null,
    reason: d.by === 'policy' ? d.reason : null,
    note: d.by === 'person' ? (d.reason ?? answerNote) : answerNote,
    decidedAt: d.decidedAt,
    answer: d.answer,
    words: decisionWords(d.answer),
    cost: Number(d.cost ?? 0),
  };
}

/** `approved by Ana (note: "fine")`, `declined by the policy (cost over budget)`: one line for any window. */
export function deciderLine(d: Pick<Decider, 'by' | 'person' | 'reason' | 'note' | 'words'>): string {
  const who = d.by === 'policy' ? 'the policy' : (d.person ?? 'a person');
  const why = d.by === 'policy' && d.reason ? ` (${d.reason})` : '';
  const note = d.note ? ` — note: ${d.note}` : '';
  return `${d.words} by ${who}${why}${note}`;
}
