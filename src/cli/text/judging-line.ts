import { escapeControls } from '../../text/escape-text.js';

/** What judging cost a batch, apart from its answers': `judging: N runs, cost C (batch X.judge)`. */
export function judgingLine(judgeName: string, c: { runs: number; cost: number }): string {
  return `judging: ${c.runs} run${c.runs === 1 ? '' : 's'}, cost ${c.cost} (batch ${escapeControls(judgeName)})`;
}
