import { deciderLine } from '../../read/decider.js';
import type { ItemView } from '../../read/item-schema.js';
import { commandHint, type HintPlace } from '../../text/command-hint.js';
import { printable } from '../../text/printable.js';
import { unwatchedText } from '../../text/unwatched-run.js';
import { costShown } from '../../policy/cost.js';

function indent(text: string, by = '    '): string {
  return text.split('\n').map((l) => `${by}${l}`).join('\n');
}

/** `label: text` on one line, or the label alone with the text's lines indented under it. */
function labelled(label: string, text: string, by = '    '): string {
  const shown = printable(text);
  return shown.includes('\n') ? `${label}:\n${indent(shown, by)}` : `${label}: ${shown}`;
}

/** The options as objects, the first of each id kept. */
function uniqueOptions(options: unknown[]): Record<string, unknown>[] {
  const seen = new Set<string>();
  return options.flatMap((o) => {
    const obj = o !== null && typeof o === 'object' ? (o as Record<string, unknown>) : { id: o };
    const key = JSON.stringify(obj.id ?? null);
    if (seen.has(key)) return [];
    seen.add(key);
    return [obj];
  });
}

/** A pause's input for a person: the plan and its steps, the options with labels, the cost. */
export function describePause(tool: string, input: Record<string, unknown>): string[] {
  const out: string[] = [];
  const str = (v: unknown) => printable(typeof v === 'string' ? v : JSON.stringify(v));
  if (typeof input.objective === 'string') out.push(`objective: ${str(input.objective)}`);
  if (Array.isArray(input.steps)) input.steps.forEach((s, i) => out.push(`step ${i + 1}: ${str(s)}`));
  if (input.cost !== undefined) out.push(`cost: ${printable(costShown(input) ?? 'null')}`);
  if (input.instead !== undefined) out.push(`instead (if declined): ${str(input.instead)}`);
  if (typeof input.question === 'string') out.push(`question: ${str(input.question)}`);
  // An option the service repeats (the same id) is shown once.
  if (Array.isArray(input.options))
    for (const o of uniqueOptions(input.options)) {
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

/**
 * How to answer a held pause, the command last and pasteable as printed, with a real first
 * answer (`--approve`, or `--choose` the pause's first option): `answer (or --decline): resq
 * answer B I --run R --approve --db x.db`. `input` is the pause's input (its options).
 */
export function answerHint(batch: string, item: string, tool: string, place: HintPlace, runId?: string | null, input?: unknown): string {
  const option = tool === 'ask_choice' ? firstOption(input) : null;
  const first = tool !== 'ask_choice' ? ['--approve'] : option !== null ? ['--choose', option] : ['--decline'];
  const others = tool !== 'ask_choice' ? 'or --decline' : option !== null ? 'or another --choose ID[,ID], or --decline' : 'it offers no options';
  return `answer (${others}): ${commandHint(['resq', 'answer', batch, item, ...(runId ? ['--run', runId] : []), ...first], place)}`;
}

/** The id of an ask_choice pause's first option, as the service sent it; null when it has none. */
function firstOption(input: unknown): string | null {
  const options = (input as { options?: unknown } | null | undefined)?.options;
  const id = Array.isArray(options) ? (options[0] as { id?: unknown } | undefined)?.id : undefined;
  return typeof id === 'string' && id !== '' ? id : typeof id === 'number' ? String(id) : null;
}

/** `resq show BATCH ITEM` as text: the read model's item view. */
export function formatItem(v: ItemView, hint: HintPlace): string {
  const it = v.item;
  const lines: string[] = [];
  lines.push(`item ${printable(it.id)} of batch ${printable(v.batch.name)} (line ${it.line}): ${it.state}${it.runStatus ? ` (run status ${printable(it.runStatus)})` : ''}`);
  if (v.wait) lines.push(`why queued: ${printable(v.wait.text)}`);
  lines.push('question:', indent(printable(it.question)));
  const meta = Object.entries(it.meta);
  if (meta.length) lines.push(`meta: ${meta.map(([k, val]) => `${printable(k)}=${printable(JSON.stringify(val))}`).join(', ')}`);
  if (it.expected !== null && it.expected !== undefined) lines.push(`expected: ${printable(typeof it.expected === 'string' ? it.expected : JSON.stringify(it.expected))}`);
  if (it.text) lines.push('answer:', indent(printable(it.text)));
  for (const s of v.verdicts) lines.push(`verdict ${printable(s.scorer)}: ${s.pass === null ? 'unscored' : s.pass ? 'pass' : 'fail'}${s.score !== null ? ` (score ${s.score})` : ''}: ${printable(s.reason)} (by ${printable(s.by)}, ${s.scoredAt})`);
  // The service's own words, verbatim but escaped; a message of several lines is indented under its label.
  if (it.error) lines.push(labelled(`error${it.errorCode ? ` (${printable(it.errorCode)})` : ''}`, it.error));
  const pauses = new Map(v.pauses.map((p) => [p.runId, p]));
  lines.push(`runs (${v.runs.length}):`);
  for (const r of v.runs) {
    // A run found ended on a resume, with no service times: when it ended is known only to a bound.
    const took = r.seconds !== null ? ` in ${r.seconds.toFixed(1)} s` : r.endedUnwatched ? ` (${unwatchedText(r.finishedAt)})` : '';
    lines.push(`  ${printable(r.id)} step ${r.step}: ${printable(r.status)}${took}${r.parentRunId ? ` (after ${printable(r.parentRunId)})` : ''}`);
    if (r.error || r.errorCode) lines.push(`    ${labelled(`failed${r.errorCode ? ` (${printable(r.errorCode)})` : ''}`, r.error ?? '', '      ')}`);
    const p = pauses.get(r.id);
    if (!p) continue;
    lines.push(`    paused on ${printable(p.tool)}:`);
    for (const l of describePause(p.tool, p.input)) lines.push(`      ${l}`);
    const d = p.decision;
    if (d) lines.push(`    decided ${printable(deciderLine(d))}, ${d.decidedAt}`);
    if (p.waiting === 'person')
      lines.push(
        `    held for a person${it.holdReason ? ` (${printable(it.holdReason)})` : ''}; ${answerHint(v.batch.name, it.id, p.tool, hint, p.runId, p.input)}`,
      );
    if (p.waiting === 'send') lines.push(v.next ? `    not sent yet (no worker running), to send it: ${v.next.command}` : '    answered: the worker carrying the batch sends it');
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
