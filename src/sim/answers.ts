/** A pause waiting for an answer: required_action of a run. */
export interface RequiredAction {
  tool: string;
  input: Record<string, unknown>;
}

/**
 * Checks an answer against the shape the spec gives for the waiting tool. Returns the
 * problem as a message for a 400, or null when the answer is acceptable.
 */
export function answerProblem(action: RequiredAction, answer: unknown): string | null {
  if (!isObject(answer)) return 'answer must be an object';
  switch (action.tool) {
    case 'confirm_scope':
    case 'request_quality_image':
      return typeof answer.approved === 'boolean' ? null : `answer.approved must be a boolean for ${action.tool}`;
    case 'ask_choice':
      return choiceProblem(action.input, answer);
    default:
      return null;
  }
}

function choiceProblem(input: Record<string, unknown>, answer: Record<string, unknown>): string | null {
  if (answer.note !== undefined && typeof answer.note !== 'string') return 'answer.note must be a string';
  if (answer.decision === 'declined') return null;
  if (answer.decision !== 'chosen') return "answer.decision must be 'chosen' or 'declined'";
  const chosen = answer.chosen;
  if (!Array.isArray(chosen) || chosen.length === 0) return 'answer.chosen must be a non-empty array of option ids';
  const offered = new Set(
    (Array.isArray(input.options) ? input.options : []).map((o) => (isObject(o) ? o.id : undefined)),
  );
  for (const id of chosen) {
    if (typeof id !== 'string' || !offered.has(id)) return `answer.chosen: '${String(id)}' is not an offered option id`;
  }
  if (new Set(chosen).size !== chosen.length) return 'answer.chosen repeats an option id';
  if (chosen.length > 1 && input.allowMultiple !== true) return 'answer.chosen may hold one id only: allowMultiple is false';
  return null;
}

/**
 * One line naming the answer, for the final text (e.g. `ask_choice: chosen a,b`), and
 * whether it asks for the narrow alternative (a declined confirm_scope).
 */
export function summariseAnswer(action: RequiredAction, answer: Record<string, unknown>): { line: string; narrow: boolean } {
  switch (action.tool) {
    case 'confirm_scope':
      return { line: `confirm_scope: ${answer.approved ? 'approved' : 'declined'}`, narrow: answer.approved !== true };
    case 'request_quality_image':
      return { line: `request_quality_image: ${answer.approved ? 'approved' : 'declined'}`, narrow: false };
    case 'ask_choice': {
      const base =
        answer.decision === 'declined' ? 'ask_choice: declined' : `ask_choice: chosen ${(answer.chosen as string[]).join(',')}`;
      return { line: typeof answer.note === 'string' ? `${base} (note: ${answer.note})` : base, narrow: false };
    }
    default:
      return { line: `${action.tool}: answered ${JSON.stringify(answer)}`, narrow: false };
  }
}

/** A plain object (not null, not an array). */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
