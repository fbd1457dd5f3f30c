import { decisionNote, decisionWords, deciderName } from './decision-text.js';
import type { DecisionRecord } from '../store/types.js';
import { recordedCost } from '../policy/cost.js';

export { decisionWords };
import type { Decider } from './status-schema.js';

/** Who decided a pause, when, why, and with what note. */
export function deciderOf(d: Pick<DecisionRecord, 'tool' | 'answer' | 'by' | 'person' | 'reason' | 'cost' | 'decidedAt'> & { overBudget?: boolean }): Decider {
  return {
    tool: d.tool,
    by: d.by,
    person: d.by === 'person' ? (d.person ?? null) : null,
    reason: d.by === 'policy' ? d.reason : null,
    note: decisionNote(d),
    decidedAt: d.decidedAt,
    answer: d.answer,
    words: decisionWords(d.answer),
    cost: recordedCost(Number(d.cost ?? 0)),
    overBudget: d.overBudget === true,
  };
}

/** `approved by Ana (note: "fine")`, `declined by the policy (cost over budget)`: one line for any window. */
export function deciderLine(d: Pick<Decider, 'by' | 'person' | 'reason' | 'note' | 'words'> & { overBudget?: boolean }): string {
  const who = deciderName({ by: d.by, person: d.person ?? null });
  const why = d.by === 'policy' && d.reason ? ` (${d.reason})` : '';
  const over = d.overBudget ? ' (over the batch budget, as confirmed)' : '';
  const note = d.note ? ` — note: ${d.note}` : '';
  return `${d.words} by ${who}${why}${over}${note}`;
}
