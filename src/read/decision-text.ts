// A decision as words and its note, for every reader of decisions: the read model, the export
// rows and the CSV export say them alike.
import type { DecisionRecord } from '../store/types.js';

/** A decision in words: "approved", "declined", "chose a, b" (else its JSON). */
export function decisionWords(answer: Record<string, unknown>): string {
  if (answer.approved === true) return 'approved';
  if (answer.approved === false || answer.decision === 'declined') return 'declined';
  if (answer.decision === 'chosen' && Array.isArray(answer.chosen)) return `chose ${answer.chosen.map(String).join(', ')}`;
  return JSON.stringify(answer);
}

/**
 * The note given with a decision: a person's note is stored as the decision's reason; a
 * policy's reason is its rule, and its note (an ask_choice rule's `note`) rides in the answer.
 */
export function decisionNote(d: Pick<DecisionRecord, 'by' | 'reason' | 'answer'>): string | null {
  const inAnswer = typeof d.answer.note === 'string' ? d.answer.note : null;
  return d.by === 'person' ? (d.reason ?? inAnswer) : inAnswer;
}

/** Who decided: the person's name, `a person` when none was given, or `the policy`. */
export function deciderName(d: Pick<DecisionRecord, 'by' | 'person'>): string {
  return d.by === 'policy' ? 'the policy' : (d.person ?? 'a person');
}
