import type { ModelField } from '../api/index.js';
import { checkValue, coerceText, normaliseType } from './coerce.js';

/** Where a column (CSV) or key (JSONL) of an input file goes. */
export type FieldRole = { kind: 'input'; field: ModelField } | { kind: 'id' } | { kind: 'meta'; key: string };

/** One problem with one input of one row. */
export interface FieldProblem {
  field: string;
  reason: string;
}

/** A row's inputs checked against the description. */
export interface CheckedInputs {
  inputs: Record<string, unknown>;
  problems: FieldProblem[];
}

/** The declared inputs by name. */
export function inputsByName(fields: readonly ModelField[]): Map<string, ModelField> {
  return new Map(fields.map((f) => [f.name, f]));
}

/**
 * Decides what a column or key is: a declared input (an input named `id` stays an input),
 * the row `id`, or `meta.NAME` kept with the row. Anything else is refused, with the
 * reason, so a misspelt input never silently drops out of the request.
 */
export function classifyField(name: string, inputs: ReadonlyMap<string, ModelField>, modelId: string): FieldRole | string {
  const field = inputs.get(name);
  if (field) return { kind: 'input', field };
  if (name === 'id') return { kind: 'id' };
  if (name.startsWith('meta.') && name.length > 5) return { kind: 'meta', key: name.slice(5) };
  const names = [...inputs.keys()];
  const near = names.find((n) => n.toLowerCase() === name.trim().toLowerCase());
  const hint = near ? ` (did you mean "${near}"? names are case-sensitive)` : '';
  const list = names.length ? names.join(', ') : 'none';
  return `not an input of model ${modelId}${hint}; its inputs: ${list}. Name the column meta.${name} to keep it with the row, or id for the row id`;
}

/**
 * Checks one row's given values against the declared inputs: required ones present, each
 * value of its declared type. `text` values (CSV cells, `--input name=value`) are coerced
 * and an empty one counts as absent; JSON values are checked as they are. Optional inputs
 * left out are left out: the service applies its own defaults.
 */
export function checkInputs(
  fields: readonly ModelField[],
  given: ReadonlyMap<string, unknown>,
  source: 'text' | 'json',
): CheckedInputs {
  const inputs: Record<string, unknown> = {};
  const problems: FieldProblem[] = [];
  for (const f of fields) {
    const raw = given.get(f.name);
    const absent = raw === undefined || raw === null || (source === 'text' && raw === '');
    if (absent) {
      if (f.required) problems.push({ field: f.name, reason: `required input missing${typeHint(f)}` });
      continue;
    }
    const r = source === 'text' ? coerceText(f.type, String(raw)) : checkValue(f.type, raw);
    if (r.ok) inputs[f.name] = r.value;
    else problems.push({ field: f.name, reason: r.reason });
  }
  return { inputs, problems };
}

function typeHint(f: ModelField): string {
  const t = normaliseType(f.type);
  return t ? ` (${t})` : '';
}
