import { commandHint } from '../../text/command-hint.js';
import { escapeControls } from '../../text/escape-text.js';

/** What judging cost a batch, apart from its answers': `judging: N runs, cost C (batch X.judge)`. */
export function judgingLine(judgeName: string, c: { runs: number; cost: number }): string {
  return `judging: ${c.runs} run${c.runs === 1 ? '' : 's'}, cost ${c.cost} (batch ${escapeControls(judgeName)})`;
}

/** What judging cost and what waits: `judging: N runs, cost C (batch X.judge)`, and the held judgings with the command that answers them. */
export function judgingLines(r: { judge: { name: string }; held: number }, cost: { runs: number; cost: number }, db: string): string[] {
  const name = r.judge.name;
  const lines = [judgingLine(name, cost)];
  if (r.held > 0) lines.push(`${r.held} judging${r.held === 1 ? '' : 's'} held for a person (left unscored); to answer: ${commandHint(['resq', 'answer', name], { db })}`);
  return lines;
}
