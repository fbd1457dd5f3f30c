// A decision as words, its note and who decided, for every reader of decisions: the read model,
// the export rows, the CSV export and the comparison of batches say them alike.
import type { DecisionRecord } from '../store/types.js';

/** An answer of a shape resq knows in words: "approved", "declined", "chose a, b"; null for any other. */
function knownWords(answer: Record<string, unknown>): string | null {
  if (answer.approved === true) return 'approved';
  if (answer.approved === false || answer.decision === 'declined') return 'declined';
  if (answer.decision === 'chosen' && Array.isArray(answer.chosen)) return `chose ${answer.chosen.map(String).join(', ')}`;
  return null;
}

/** A decision in words: "approved", "declined", "chose a, b" (else its JSON). */
export function decisionWords(answer: Record<string, unknown>): string {
  return knownWords(answer) ?? JSON.stringify(answer);
}

/**
 * A decision's answer in words with its note in quotes when one was given: `declined (note:
 * "off topic")`; an answer of another shape as its JSON text.
 */
export function answerInWords(answer: Record<string, unknown>): string {
  const words = knownWords(answer);
  if (words === null) return JSON.stringify(answer);
  return typeof answer.note === 'string' && answer.note !== '' ? `${words} (note: ${JSON.stringify(answer.note)})` : words;
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

/** A decision as one line: `confirm_scope: approved by ana`, `ask_choice: chose b by the policy`. */
export function decisionInWords(d: Pick<DecisionRecord, 'tool' | 'answer' | 'by' | 'person'>): string {
  return `${d.tool}: ${answerInWords(d.answer)} by ${deciderName(d)}`;
}
