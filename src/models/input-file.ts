import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { CsvError } from 'csv-parse';
import { parse } from 'csv-parse/sync';
import type { ModelField } from '../api/index.js';
import { InputError, type InputProblem } from '../errors.js';
import type { NewModelRow } from '../store/index.js';
import { checkInputs, classifyField, type FieldRole, inputsByName } from './validate.js';

/** An input file read whole: its valid rows, every problem, and its sha256. */
export interface ModelInputFile {
  rows: NewModelRow[];
  problems: InputProblem[];
  sha256: string;
}

/** What the rows are checked against. */
export interface InputSpec {
  modelId: string;
  inputs: readonly ModelField[];
}

const MAX_PROBLEMS = 1000;

/** Format named by the file's extension. */
export function inputFormat(path: string): 'csv' | 'jsonl' {
  const ext = extname(path).toLowerCase();
  if (ext === '.csv') return 'csv';
  if (ext === '.jsonl' || ext === '.ndjson') return 'jsonl';
  throw new InputError([{ file: path, reason: 'expected a .csv or .jsonl (.ndjson) file of model inputs' }]);
}

/**
 * Reads and checks a whole file of model inputs (CSV with a header row, or one JSON
 * object a line) against the model's declared inputs. Every problem is collected as
 * `file:line: input: reason` (at most 1000); the caller sends nothing unless there are none.
 */
export async function readModelInputs(path: string, spec: InputSpec): Promise<ModelInputFile> {
  const format = inputFormat(path);
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (e) {
    throw new InputError([{ file: path, reason: `cannot read: ${(e as NodeJS.ErrnoException).code ?? String(e)}` }], { cause: e });
  }
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const acc = new Accumulator(path);
  if (format === 'csv') readCsv(bytes, path, spec, acc);
  else readJsonl(bytes, path, spec, acc);
  if (acc.rows.length === 0 && acc.problems.length === 0) acc.problem({ file: path, reason: 'no input rows' });
  return { rows: acc.rows, problems: acc.finish(), sha256 };
}

/** Rows and problems so far, with duplicate-id detection and a bounded problem list. */
class Accumulator {
  readonly rows: NewModelRow[] = [];
  readonly problems: InputProblem[] = [];
  #dropped = 0;
  readonly #ids = new Map<string, number>();
  constructor(readonly file: string) {}

  problem(p: InputProblem): void {
    if (this.problems.length < MAX_PROBLEMS) this.problems.push(p);
    else this.#dropped++;
  }

  add(row: NewModelRow): void {
    const first = this.#ids.get(row.id);
    if (first !== undefined) {
      this.problem({ file: this.file, line: row.line, field: 'id', reason: `duplicate id ${JSON.stringify(row.id)} (first on line ${first})` });
      return;
    }
    this.#ids.set(row.id, row.line);
    this.rows.push(row);
  }

  finish(): InputProblem[] {
    if (this.#dropped > 0) this.problems.push({ file: this.file, reason: `… and ${this.#dropped} more problems` });
    return this.problems;
  }
}

function readCsv(bytes: Buffer, file: string, spec: InputSpec, acc: Accumulator): void {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(bytes, {
      bom: true,
      info: true,
      relax_column_count: true,
      skip_empty_lines: false,
      record_delimiter: ['\r\n', '\n', '\r'],
    }) as unknown as typeof records;
  } catch (e) {
    if (!(e instanceof CsvError)) throw e;
    const line = (e as CsvError & { lines?: number }).lines;
    acc.problem({ file, ...(line ? { line } : {}), reason: `${e.message} (the file cannot be read past this point)` });
    return;
  }
  const first = records[0];
  if (!first) return;
  const header = first.record.map((h) => h.trim());
  const inputs = inputsByName(spec.inputs);
  const roles: FieldRole[] = [];
  let headerOk = true;
  header.forEach((name, i) => {
    const role = name === '' ? `column ${i + 1} has no name` : classifyField(name, inputs, spec.modelId);
    if (typeof role === 'string') {
      acc.problem({ file, line: 1, field: name || `column ${i + 1}`, reason: role });
      headerOk = false;
    } else if (header.indexOf(name) !== i) {
      acc.problem({ file, line: 1, field: name, reason: 'column appears twice' });
      headerOk = false;
    } else roles.push(role);
  });
  for (const f of spec.inputs)
    if (f.required && !header.includes(f.name))
      acc.problem({ file, line: 1, field: f.name, reason: 'required input has no column' });
  if (!headerOk || acc.problems.length > 0) return;
  let prevEnd = first.info.lines;
  let ordinal = 0;
  for (const { record, info } of records.slice(1)) {
    const line = prevEnd + 1;
    prevEnd = info.lines;
    if (record.length === 1 && record[0] === '') continue;
    ordinal++;
    if (record.length !== header.length) {
      acc.problem({ file, line, reason: `expected ${header.length} fields like the header, found ${record.length}` });
      continue;
    }
    const given = new Map<string, unknown>();
    const meta: Record<string, unknown> = {};
    let id = '';
    roles.forEach((role, i) => {
      const cell = record[i] ?? '';
      if (role.kind === 'input') given.set(role.field.name, cell);
      else if (role.kind === 'id') id = cell.trim();
      else meta[role.key] = cell;
    });
    addRow(acc, spec, given, 'text', { line, id: id || String(ordinal), meta });
  }
}

function readJsonl(bytes: Buffer, file: string, spec: InputSpec, acc: Accumulator): void {
  let text = bytes.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const inputs = inputsByName(spec.inputs);
  let ordinal = 0;
  text.split('\n').forEach((raw, i) => {
    const line = i + 1;
    const src = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (src.trim() === '') return;
    ordinal++;
    let value: unknown;
    try {
      value = JSON.parse(src);
    } catch (e) {
      acc.problem({ file, line, reason: `invalid JSON: ${e instanceof Error ? e.message : String(e)}` });
      return;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      acc.problem({ file, line, reason: 'expected a JSON object of inputs' });
      return;
    }
    const given = new Map<string, unknown>();
    const meta: Record<string, unknown> = {};
    let id = String(ordinal);
    let ok = true;
    for (const [key, v] of Object.entries(value)) {
      // A `meta` object is the row's metadata unless the model has an input of that name.
      if (key === 'meta' && !inputs.has(key) && typeof v === 'object' && v !== null && !Array.isArray(v)) {
        Object.assign(meta, v);
        continue;
      }
      const role = classifyField(key, inputs, spec.modelId);
      if (typeof role === 'string') {
        acc.problem({ file, line, field: key, reason: role });
        ok = false;
      } else if (role.kind === 'input') given.set(key, v);
      else if (role.kind === 'meta') meta[role.key] = v;
      else if (typeof v === 'string' && v.trim() !== '') id = v.trim();
      else if (typeof v === 'number' && Number.isFinite(v)) id = String(v);
      else {
        acc.problem({ file, line, field: 'id', reason: 'must be a non-empty string or a number' });
        ok = false;
      }
    }
    addRow(acc, spec, given, 'json', { line, id, meta }, ok);
  });
}

function addRow(
  acc: Accumulator,
  spec: InputSpec,
  given: ReadonlyMap<string, unknown>,
  source: 'text' | 'json',
  row: { line: number; id: string; meta: Record<string, unknown> },
  ok = true,
): void {
  // Checked even when the row is already refused, so every problem of the line is reported at once.
  const checked = checkInputs(spec.inputs, given, source);
  if (!ok || checked.problems.length > 0) {
    for (const p of checked.problems) acc.problem({ file: acc.file, line: row.line, field: p.field, reason: p.reason });
    return;
  }
  acc.add({ id: row.id, line: row.line, inputs: checked.inputs, meta: row.meta });
}
