import type { DecisionRecord, FileRecord, ItemRecord, RunRecord } from '../../store/index.js';
import { dbFlag } from '../db-path.js';
import { printable } from './printable.js';

/** Everything `resq show` prints about one item. */
export interface ItemView {
  batch: string;
  item: ItemRecord;
  runs: RunRecord[];
  decisions: DecisionRecord[];
  files: FileRecord[];
}

function indent(text: string, by = '    '): string {
  return text.split('\n').map((l) => `${by}${l}`).join('\n');
}

/** `label: text` on one line, or the label alone with the text's lines indented under it. */
function labelled(label: string, text: string, by = '    '): string {
  const shown = printable(text);
  return shown.includes('\n') ? `${label}:\n${indent(shown, by)}` : `${label}: ${shown}`;
}

/** A pause's input for a person: the plan and its steps, the options with labels, the cost. */
export function describePause(tool: string, input: Record<string, unknown>): string[] {
  const out: string[] = [];
  const str = (v: unknown) => printable(typeof v === 'string' ? v : JSON.stringify(v));
  if (typeof input.objective === 'string') out.push(`objective: ${str(input.objective)}`);
  if (Array.isArray(input.steps)) input.steps.forEach((s, i) => out.push(`step ${i + 1}: ${str(s)}`));
  if (input.cost !== undefined) out.push(`cost: ${str(input.cost)}`);
  if (input.instead !== undefined) out.push(`instead (if declined): ${str(input.instead)}`);
  if (typeof input.question === 'string') out.push(`question: ${str(input.question)}`);
  if (Array.isArray(input.options))
    for (const o of input.options as Record<string, unknown>[]) {
      const label = o.label ?? o.title ?? o.text ?? o.name;
      out.push(`option ${str(o.id)}${label !== undefined ? `: ${str(label)}` : ''}`);
    }
  if (input.allowMultiple !== undefined) out.push(`several allowed: ${input.allowMultiple ? 'yes' : 'no'}`);
  if (typeof input.prompt === 'string') out.push(`prompt: ${str(input.prompt)}`);
  if (typeof input.reason === 'string') out.push(`reason: ${str(input.reason)}`);
  const known = new Set(['objective', 'steps', 'cost', 'instead', 'question', 'options', 'allowMultiple', 'prompt', 'reason']);
  for (const [k, v] of Object.entries(input)) if (!known.has(k)) out.push(`${printable(k)}: ${str(v)}`);
  return out.length ? out : [`(${printable(tool)} gave no input)`];
}

/**
 * The flags `resq answer` takes for a pause of `tool` (what runner/answer.ts accepts):
 * ask_choice is chosen or declined; every other tool, known or not, approved or declined.
 */
export function answerFlags(tool: string): string {
  return tool === 'ask_choice' ? '--choose ID[,ID] | --decline' : '--approve | --decline';
}

/** `resq show BATCH ITEM` as text. */
export function formatItem(v: ItemView, hint: { db: string }): string {
  const it = v.item;
  const lines: string[] = [];
  lines.push(`item ${printable(it.id)} of batch ${printable(v.batch)} (line ${it.line}): ${it.state}${it.runStatus ? ` (run status ${printable(it.runStatus)})` : ''}`);
  lines.push('question:', indent(printable(it.question)));
  const meta = Object.entries(it.meta);
  if (meta.length) lines.push(`meta: ${meta.map(([k, val]) => `${printable(k)}=${printable(JSON.stringify(val))}`).join(', ')}`);
  if (it.text) lines.push('answer:', indent(printable(it.text)));
  // The service's own words, verbatim but escaped; a message of several lines is indented under its label.
  if (it.error) lines.push(labelled(`error${it.errorCode ? ` (${printable(it.errorCode)})` : ''}`, it.error));
  lines.push(`runs (${v.runs.length}):`);
  for (const r of v.runs) {
    const took = r.finishedAt ? ` in ${((Date.parse(r.finishedAt) - Date.parse(r.createdAt)) / 1000).toFixed(1)} s` : '';
    lines.push(`  ${printable(r.id)} step ${r.step}: ${printable(r.status)}${took}${r.parentRunId ? ` (after ${printable(r.parentRunId)})` : ''}`);
    if (r.error || r.errorCode) lines.push(`    ${labelled(`failed${r.errorCode ? ` (${printable(r.errorCode)})` : ''}`, r.error ?? '', '      ')}`);
    if (r.requiredAction) {
      lines.push(`    paused on ${printable(r.requiredAction.tool)}:`);
      for (const l of describePause(r.requiredAction.tool, r.requiredAction.input)) lines.push(`      ${l}`);
      const d = v.decisions.find((x) => x.runId === r.id);
      if (d) lines.push(`    decided by ${d.by}: ${printable(JSON.stringify(d.answer))}${d.reason ? ` — ${printable(d.reason)}` : ''}`);
      else if (it.state === 'held' && it.runId === r.id)
        lines.push(
          `    held for a person${it.holdReason ? ` (${printable(it.holdReason)})` : ''}: resq answer ${printable(v.batch)} ${printable(it.id)} ${answerFlags(r.requiredAction.tool)}${dbFlag(hint.db)}`,
        );
    }
  }
  if (v.files.length) {
    lines.push(`files (${v.files.length}):`);
    for (const f of v.files) {
      const where = f.path ? `${printable(f.path)}${f.host ? ` on ${printable(f.host)}` : ''}` : `not on disk${f.error ? `: ${printable(f.error)}` : ''}`;
      lines.push(`  ${printable(f.name ?? f.id)} [${f.status}${f.bytes !== null ? `, ${f.bytes} bytes` : ''}] ${where}`);
    }
  }
  return lines.join('\n');
}
