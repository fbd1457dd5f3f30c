import type { ModelField } from '../api/index.js';
import type { InputProblem } from '../errors.js';
import { isRawNumber } from '../text/json-text.js';
import type { CsvRowReader, ReadResult, RowSchema } from '../tables/row-schema.js';
import { checkInputs, classifyField, type FieldRole, inputsByName } from './validate.js';

/** One valid row of a model-input file: the shape the store loads (its `NewModelRow`). */
export interface ModelInputRow {
  /** The file's `id`, or else the data row's 1-based ordinal. */
  id: string;
  /** 1-based physical line where the record starts. */
  line: number;
  /** Inputs as they will be sent (coerced to the declared types). */
  inputs: Record<string, unknown>;
  /** `meta.NAME` columns (CSV) or keys and the `meta` object (JSONL). */
  meta: Record<string, unknown>;
}

/** What the rows are checked against. */
export interface InputSpec {
  modelId: string;
  inputs: readonly ModelField[];
}

/**
 * The model-input schema of the one streaming reader (src/tables/table-reader.ts):
 * every column or key is a declared input, `id`, or `meta.NAME`; each row's inputs are
 * checked against the model's description (CSV cells coerced to the declared types,
 * JSON values checked as they are). A row reports every problem it has, one per input.
 */
export function modelInputSchema(spec: InputSpec): RowSchema<ModelInputRow> {
  const inputs = inputsByName(spec.inputs);
  return {
    noun: 'input rows',
    csvHeader: (file, names, line) => csvHeader(spec, inputs, file, names, line),
    jsonRow: (file, value, line, ordinal) => jsonRow(spec, inputs, file, value, line, ordinal),
  };
}

function csvHeader(
  spec: InputSpec,
  inputs: ReadonlyMap<string, ModelField>,
  file: string,
  written: string[],
  line: number,
): CsvRowReader<ModelInputRow> | InputProblem[] {
  const names = written.map((h) => h.trim());
  const roles: FieldRole[] = [];
  const problems: InputProblem[] = [];
  names.forEach((name, i) => {
    const role = name === '' ? `column ${i + 1} has no name` : classifyField(name, inputs, spec.modelId);
    if (typeof role === 'string') problems.push({ file, line, field: name || `column ${i + 1}`, reason: role });
    else if (names.indexOf(name) !== i) problems.push({ file, line, field: name, reason: 'column appears twice' });
    else roles.push(role);
  });
  for (const f of spec.inputs) {
    if (f.required && !names.includes(f.name)) problems.push({ file, line, field: f.name, reason: 'required input has no column' });
  }
  if (problems.length > 0) return problems;
  return (fields, at, ordinal) => {
    const given = new Map<string, unknown>();
    const meta: Record<string, unknown> = {};
    let id = '';
    roles.forEach((role, i) => {
      const cell = fields[i] ?? '';
      if (role.kind === 'input') given.set(role.field.name, cell);
      else if (role.kind === 'id') id = cell.trim();
      else setKey(meta, role.key, cell);
    });
    return checked(spec, file, given, 'text', { line: at, id: id || String(ordinal), meta }, []);
  };
}

function jsonRow(
  spec: InputSpec,
  inputs: ReadonlyMap<string, ModelField>,
  file: string,
  value: unknown,
  line: number,
  ordinal: number,
): ReadResult<ModelInputRow> {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || isRawNumber(value)) {
    return { ok: false, problem: { file, line, reason: 'expected a JSON object of inputs' } };
  }
  const given = new Map<string, unknown>();
  const meta: Record<string, unknown> = {};
  const problems: InputProblem[] = [];
  let id = String(ordinal);
  const record = value as Record<string, unknown>;
  // Object.keys, not entries: no pair array a key, a million rows over.
  for (const key of Object.keys(record)) {
    const v = record[key];
    // A `meta` object is the row's metadata unless the model has an input of that name.
    if (key === 'meta' && !inputs.has(key) && isPlainObject(v)) {
      for (const k of Object.keys(v)) setKey(meta, k, v[k]);
      continue;
    }
    const role = classifyField(key, inputs, spec.modelId);
    if (typeof role === 'string') problems.push({ file, line, field: key, reason: role });
    // An input is checked and sent as a number: its exact text matters only in meta.
    else if (role.kind === 'input') given.set(key, isRawNumber(v) ? Number(v.rawJSON) : v);
    else if (role.kind === 'meta') setKey(meta, role.key, v);
    else if (typeof v === 'string' && v.trim() !== '') id = v.trim();
    // A number id stays as written (`007` cannot be JSON; `1.50`, big integers can).
    else if (isRawNumber(v)) id = v.rawJSON;
    else if (typeof v === 'number' && Number.isFinite(v)) id = String(v);
    else problems.push({ file, line, field: 'id', reason: 'must be a non-empty string or a number' });
  }
  return checked(spec, file, given, 'json', { line, id, meta }, problems);
}

/** Checks the inputs (even when the row is already refused, so every problem of the line is reported at once). */
function checked(
  spec: InputSpec,
  file: string,
  given: ReadonlyMap<string, unknown>,
  source: 'text' | 'json',
  row: { line: number; id: string; meta: Record<string, unknown> },
  problems: InputProblem[],
): ReadResult<ModelInputRow> {
  const result = checkInputs(spec.inputs, given, source);
  for (const p of result.problems) problems.push({ file, line: row.line, field: p.field, reason: p.reason });
  if (problems.length === 0) return { ok: true, row: { ...row, inputs: result.inputs } };
  if (problems.length === 1) return { ok: false, problem: problems[0]! };
  return { ok: false, problem: problems[0]!, more: problems.slice(1) };
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !isRawNumber(v);
}

/** Sets a key even when it is `__proto__`, which plain assignment would swallow. */
function setKey(target: Record<string, unknown>, name: string, value: unknown): void {
  if (name === '__proto__') Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
  else target[name] = value;
}
