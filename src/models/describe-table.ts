import type { ModelDescription, ModelField } from '../api/index.js';

const MODEL_KEYS = new Set(['id', 'name', 'description', 'page_url', 'inputs', 'outputs']);
const INPUT_KEYS = new Set(['name', 'type', 'required', 'default', 'description']);
const OUTPUT_KEYS = new Set(['name', 'type', 'required', 'description']);

function text(v: unknown): string {
  if (v === undefined) return '';
  if (typeof v === 'string') return v;
  return JSON.stringify(v);
}

/** Fields the interface does not name, as `key=value` pairs: shown, never dropped. */
function extras(o: Record<string, unknown>, known: ReadonlySet<string>): string {
  return Object.entries(o)
    .filter(([k, v]) => !known.has(k) && v !== undefined)
    .map(([k, v]) => `${k}=${text(v)}`)
    .join(' ');
}

/** Lays out rows under a header, columns padded to their widest cell; empty trailing columns dropped. */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const used = header.map((_, c) => c < 2 || rows.some((r) => (r[c] ?? '') !== ''));
  const cols = header.map((_, c) => c).filter((c) => used[c]);
  const width = cols.map((c) => Math.max(header[c]!.length, ...rows.map((r) => (r[c] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cols
      .map((c, i) => (i === cols.length - 1 ? (cells[c] ?? '') : (cells[c] ?? '').padEnd(width[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

function inputRow(f: ModelField): string[] {
  const hasDefault = Object.hasOwn(f, 'default') && f.default !== undefined;
  return [f.name, f.type ?? '', f.required ? 'yes' : 'no', hasDefault ? text(f.default) : '', f.description ?? '', extras(f, INPUT_KEYS)];
}

function outputRow(f: ModelField): string[] {
  return [f.name, f.type ?? '', f.description ?? '', extras(f, OUTPUT_KEYS)];
}

/**
 * A model description for a person: the model's name and page, its inputs (name, type,
 * required, default, description) and outputs as tables, and every field the interface
 * does not name, shown as it came. Pure: returns the text.
 */
export function formatDescription(d: ModelDescription, requestedId: string): string {
  const lines: string[] = [];
  const title = d.name && d.name !== (d.id ?? requestedId) ? `${d.id ?? requestedId} — ${d.name}` : (d.id ?? requestedId);
  lines.push(`model ${title}`);
  const about = (d as Record<string, unknown>).description;
  if (typeof about === 'string' && about) lines.push(about);
  if (d.page_url) lines.push(`page: ${d.page_url}`);
  const other = Object.entries(d).filter(([k, v]) => !MODEL_KEYS.has(k) && v !== undefined);
  for (const [k, v] of other) lines.push(`${k}: ${text(v)}`);
  lines.push('', 'inputs:');
  lines.push(
    d.inputs.length
      ? indent(formatTable(['name', 'type', 'required', 'default', 'description', 'other'], d.inputs.map(inputRow)))
      : '  (none declared)',
  );
  lines.push('', 'outputs:');
  lines.push(
    d.outputs.length ? indent(formatTable(['name', 'type', 'description', 'other'], d.outputs.map(outputRow))) : '  (none declared)',
  );
  return lines.join('\n');
}

function indent(s: string): string {
  return s
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
}
