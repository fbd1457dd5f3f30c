import { OverBudgetError, PauseMovedError } from '../errors.js';
import { printable } from '../text/printable.js';
import { commandHint } from '../text/command-hint.js';

/**
 * A refusal of `resq answer` that leaves a person something to do, as its one line for stderr:
 * look at the new pause (a pause moved on), or confirm going over the budget; undefined for
 * any other error (the CLI's own error line says it).
 */
export function refusalLine(e: unknown, batchName: string, db: string): string | undefined {
  if (e instanceof PauseMovedError) return `resq: ${printable(e.message)}; ${commandHint(['resq', 'show', batchName, e.itemId], { db })}\n`;
  if (e instanceof OverBudgetError) return `resq: ${printable(e.message)}; give --over-budget to approve it anyway\n`;
  return undefined;
}
