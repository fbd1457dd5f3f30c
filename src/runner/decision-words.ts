import type { DecisionRecord } from '../store/index.js';

/**
 * A decision's answer in words: "approved", "declined", "chose a, b"; an answer of another
 * shape as its JSON text. The note, when one was given, follows in quotes.
 */
export function answerInWords(answer: Record<string, unknown>): string {
  const note = typeof answer.note === 'string' && answer.note !== '' ? ` (note: ${JSON.stringify(answer.note)})` : '';
  if (answer.approved === true) return `approved${note}`;
  if (answer.approved === false || answer.decision === 'declined') return `declined${note}`;
  if (answer.decision === 'chosen' && Array.isArray(answer.chosen)) return `chose ${answer.chosen.map(String).join(', ')}${note}`;
  return JSON.stringify(answer);
}

/** A decision as one line: `confirm_scope: approved by ana`, `ask_choice: chose b by policy`. */
export function decisionInWords(d: Pick<DecisionRecord, 'tool' | 'answer' | 'by' | 'person'>): string {
  const who = d.by === 'person' ? (d.person ? `by ${d.person}` : 'by a person') : 'by policy';
  return `${d.tool}: ${answerInWords(d.answer)} ${who}`;
}
